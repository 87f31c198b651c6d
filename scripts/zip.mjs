// A small zip writer (PKWARE APPNOTE 6.3: local headers, deflated data, central directory,
// end record; no zip64, so each file and the whole archive stay under 4 GiB), enough for a
// SCORM package. Entries get a fixed date so the same input gives the same bytes.
import { deflateRawSync, crc32 } from 'node:zlib';

const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1; // 2026-01-01
const DOS_TIME = 0;

/** entries: [{ name, data: Buffer|string }] → the zip's bytes. */
export function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8');
    const packed = deflateRawSync(bytes, { level: 9 });
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(bytes);
    const common = (header) => {
      header.writeUInt16LE(20, 0); // version needed: 2.0 (deflate)
      header.writeUInt16LE(0x0800, 2); // the name is UTF-8
      header.writeUInt16LE(8, 4); // deflate
      header.writeUInt16LE(DOS_TIME, 6);
      header.writeUInt16LE(DOS_DATE, 8);
      header.writeUInt32LE(crc, 10);
      header.writeUInt32LE(packed.length, 14);
      header.writeUInt32LE(bytes.length, 18);
      header.writeUInt16LE(fileName.length, 22);
      return header;
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local.subarray(4));
    locals.push(local, fileName, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
    common(central.subarray(6));
    central.writeUInt32LE(offset, 42);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
