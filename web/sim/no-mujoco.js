// The single file's stand-in for @mujoco/mujoco (web/vite.config.js, --mode single): the
// classroom file carries no 10 MB engine, so choosing MuJoCo there reports why.
export default function load() {
  return Promise.reject(new Error('MuJoCo is not part of the single-file page; the hosted site has it'));
}
