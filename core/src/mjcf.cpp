// The MJCF importer (mjcf.hpp): a small strict XML reader that keeps each element's
// line, then MuJoCo's model semantics as its XML reference ("Modeling" and "XML
// Reference" chapters of the MuJoCo documentation) states them for the supported subset:
// frames relative to the parent body, the inertial frame (or the geoms' inertia when a
// body has none, compiler inertiafromgeom="auto"), angles in degrees unless
// <compiler angle="radian">, and a keyframe's qpos / qvel read as mj_kinematics reads
// them (free: position and quaternion, world linear and body angular velocity; ball: the
// quaternion and angular velocity relative to the parent, in the child's frame; hinge:
// the angle and rate about the axis).
#include "vilab/mjcf.hpp"

#include <Eigen/Dense>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>

#include "vilab/detmath.hpp"
#include "vilab/limits.hpp"
#include "vilab/models/rigid_body.hpp"
#include "vilab/registry.hpp"
#include "vilab/scenario.hpp"

namespace vilab {

namespace {

[[noreturn]] void fail(int line, InputErrorCode code, const std::string& problem) {
  throw InputError(code, "mjcf line " + std::to_string(line), problem);
}

// ---- XML: elements and attributes with their lines; no text content is kept ----

struct XmlAttribute {
  std::string name, value;
  int line = 0;
};

struct XmlElement {
  std::string name;
  int line = 0;
  std::vector<XmlAttribute> attributes;
  std::vector<XmlElement> children;
};

class XmlReader {
 public:
  explicit XmlReader(const std::string& text) : s_(text) {}

  XmlElement document() {
    if (s_.compare(0, 3, "\xEF\xBB\xBF") == 0) i_ = 3;  // a UTF-8 byte-order mark
    misc(true);
    if (i_ >= s_.size() || s_[i_] != '<') fail(line_, InputErrorCode::Syntax, "expected the <mujoco> element");
    XmlElement root = element(0);
    misc(false);
    if (i_ < s_.size()) fail(line_, InputErrorCode::Syntax, "text after the root element");
    return root;
  }

 private:
  static constexpr int kMaxDepth = limits::kMaxMechanismBodies + 8;

  bool starts(const char* p) const { return s_.compare(i_, std::strlen(p), p) == 0; }
  void advance(std::size_t n) {
    for (std::size_t k = 0; k < n && i_ < s_.size(); ++k)
      if (s_[i_++] == '\n') ++line_;
  }
  void spaces() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) advance(1);
  }
  void skipPast(const char* end, const char* what) {
    const int at = line_;
    const std::size_t e = s_.find(end, i_);
    if (e == std::string::npos) fail(at, InputErrorCode::Syntax, std::string("unterminated ") + what);
    advance(e + std::strlen(end) - i_);
  }
  // Whitespace, comments and (before the root only) the XML declaration.
  void misc(bool prolog) {
    for (;;) {
      spaces();
      if (starts("<!--")) {
        skipPast("-->", "comment");
      } else if (starts("<?xml") && prolog) {
        skipPast("?>", "XML declaration");
      } else if (starts("<!DOCTYPE") || starts("<!doctype")) {
        fail(line_, InputErrorCode::Syntax, "a DOCTYPE is not supported");
      } else if (starts("<?")) {
        fail(line_, InputErrorCode::Syntax, "a processing instruction is not supported");
      } else {
        return;
      }
    }
  }
  static bool nameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':';
  }
  std::string name(const char* what) {
    const std::size_t b = i_;
    while (i_ < s_.size() && nameChar(s_[i_])) ++i_;
    if (i_ == b) fail(line_, InputErrorCode::Syntax, std::string("expected ") + what);
    return s_.substr(b, i_ - b);
  }
  // An attribute value with the five predefined entities replaced.
  std::string value() {
    const char quote = s_[i_];
    advance(1);
    std::string out;
    const int at = line_;
    while (i_ < s_.size() && s_[i_] != quote) {
      const char c = s_[i_];
      if (c == '<') fail(line_, InputErrorCode::Syntax, "'<' inside an attribute value");
      if (c == '&') {
        static const std::pair<const char*, char> entities[] = {
            {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
        bool known = false;
        for (const auto& [text, ch] : entities)
          if (starts(text)) {
            out += ch;
            advance(std::strlen(text));
            known = true;
            break;
          }
        if (!known) fail(line_, InputErrorCode::Syntax, "unknown entity (only &lt; &gt; &amp; &quot; &apos;)");
        continue;
      }
      out += c;
      advance(1);
    }
    if (i_ >= s_.size()) fail(at, InputErrorCode::Syntax, "unterminated attribute value");
    advance(1);
    return out;
  }
  XmlElement element(int depth) {
    if (depth > kMaxDepth)
      fail(line_, InputErrorCode::TooLarge, "elements nested deeper than " + std::to_string(kMaxDepth));
    XmlElement e;
    e.line = line_;
    advance(1);  // '<'
    e.name = name("an element name");
    for (;;) {
      const std::size_t before = i_;
      spaces();
      if (i_ >= s_.size()) fail(e.line, InputErrorCode::Syntax, "unterminated <" + cutForMessage(e.name) + ">");
      if (starts("/>")) {
        advance(2);
        return e;
      }
      if (s_[i_] == '>') {
        advance(1);
        break;
      }
      if (i_ == before) fail(line_, InputErrorCode::Syntax, "expected a space before an attribute");
      XmlAttribute a;
      a.line = line_;
      a.name = name("an attribute name");
      spaces();
      if (i_ >= s_.size() || s_[i_] != '=')
        fail(line_, InputErrorCode::Syntax, "expected '=' after attribute " + cutForMessage(a.name));
      advance(1);
      spaces();
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\''))
        fail(line_, InputErrorCode::Syntax, "the value of " + cutForMessage(a.name) + " must be quoted");
      a.value = value();
      for (const XmlAttribute& other : e.attributes)
        if (other.name == a.name)
          fail(a.line, InputErrorCode::Syntax, "attribute " + cutForMessage(a.name) + " repeated");
      e.attributes.push_back(std::move(a));
    }
    // Content: child elements, comments and whitespace.
    for (;;) {
      spaces();
      if (i_ >= s_.size()) fail(e.line, InputErrorCode::Syntax, "<" + cutForMessage(e.name) + "> is not closed");
      if (starts("<!--")) {
        skipPast("-->", "comment");
      } else if (starts("<![CDATA[")) {
        fail(line_, InputErrorCode::Syntax, "CDATA is not supported");
      } else if (starts("<!") || starts("<?")) {
        fail(line_, InputErrorCode::Syntax, "markup declarations are not supported");
      } else if (starts("</")) {
        const int at = line_;
        advance(2);
        const std::string closing = name("an element name");
        spaces();
        if (i_ >= s_.size() || s_[i_] != '>') fail(line_, InputErrorCode::Syntax, "expected '>'");
        advance(1);
        if (closing != e.name)
          fail(at, InputErrorCode::Syntax,
               "</" + cutForMessage(closing) + "> closes <" + cutForMessage(e.name) + "> of line " +
                   std::to_string(e.line));
        return e;
      } else if (s_[i_] == '<') {
        e.children.push_back(element(depth + 1));
      } else {
        fail(line_, InputErrorCode::Syntax, "text inside <" + cutForMessage(e.name) + "> (MJCF has none)");
      }
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
  int line_ = 1;
};

// ---- attributes ----

// The attributes an element may have; `ignored` ones are read by nobody here (names,
// colours, contact parameters: no contact is simulated).
void allowAttributes(const XmlElement& e, std::initializer_list<const char*> read,
                     std::initializer_list<const char*> ignored = {}) {
  for (const XmlAttribute& a : e.attributes) {
    bool ok = false;
    for (const char* n : read) ok = ok || a.name == n;
    for (const char* n : ignored) ok = ok || a.name == n;
    if (!ok)
      fail(a.line, InputErrorCode::UnknownKey,
           "attribute " + cutForMessage(a.name) + " of <" + e.name + "> is not supported");
  }
}

const XmlAttribute* attribute(const XmlElement& e, const char* name) {
  for (const XmlAttribute& a : e.attributes)
    if (a.name == name) return &a;
  return nullptr;
}

std::string text(const XmlElement& e, const char* name, const std::string& fallback) {
  const XmlAttribute* a = attribute(e, name);
  return a ? a->value : fallback;
}

// `count` finite numbers (between minCount and count when minCount < count), separated
// by whitespace.
std::vector<double> numbers(const XmlAttribute& a, const std::string& element, int minCount, int count) {
  std::vector<double> out;
  const char* p = a.value.c_str();
  const char* end = p + a.value.size();
  auto bad = [&](const std::string& why) -> void {
    fail(a.line, InputErrorCode::Range,
         "attribute " + a.name + " of <" + element + ">: " + why + ", got \"" + cutForMessage(a.value) + "\"");
  };
  for (;;) {
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (p >= end) break;
    char* stop = nullptr;
    const double x = std::strtod(p, &stop);
    if (stop == p || (stop < end && !std::isspace(static_cast<unsigned char>(*stop)))) bad("is not a list of numbers");
    if (!std::isfinite(x)) bad("must be finite");
    out.push_back(x);
    p = stop;
    if (out.size() > static_cast<std::size_t>(count)) break;
  }
  if (out.size() < static_cast<std::size_t>(minCount) || out.size() > static_cast<std::size_t>(count))
    bad(minCount == count ? "must be " + std::to_string(count) + " numbers"
                          : "must be " + std::to_string(minCount) + " to " + std::to_string(count) + " numbers");
  return out;
}

std::vector<double> numbers(const XmlElement& e, const char* name, int count, const std::vector<double>& fallback) {
  const XmlAttribute* a = attribute(e, name);
  return a ? numbers(*a, e.name, count, count) : fallback;
}

Vec3 vec3(const XmlElement& e, const char* name, const Vec3& fallback) {
  const std::vector<double> v = numbers(e, name, 3, {fallback[0], fallback[1], fallback[2]});
  return Vec3(v[0], v[1], v[2]);
}

// An attribute that must keep its neutral value (physics vilab does not model).
void requireNeutral(const XmlElement& e, const char* name, double neutral = 0) {
  const XmlAttribute* a = attribute(e, name);
  if (!a) return;
  for (double x : numbers(*a, e.name, 1, 1000000))
    if (x != neutral)
      fail(a->line, InputErrorCode::Invalid,
           "attribute " + std::string(name) + " of <" + e.name + "> is not supported (only " + formatNumber(neutral) +
               ")");
}

void requireWord(const XmlElement& e, const char* name, std::initializer_list<const char*> allowed) {
  const XmlAttribute* a = attribute(e, name);
  if (!a) return;
  std::string list;
  for (const char* w : allowed) {
    if (a->value == w) return;
    list += (list.empty() ? "" : ", ") + std::string(w);
  }
  fail(a->line, InputErrorCode::Invalid,
       "attribute " + std::string(name) + "=\"" + cutForMessage(a->value) + "\" of <" + e.name +
           "> is not supported (only " + list + ")");
}

// ---- rotations ----

struct Compiler {
  double angleUnit = dm::pi / 180;  // degrees
  std::string eulerseq = "xyz";
  std::string inertiaFromGeom = "auto";
};

Vec4 axisAngle(Vec3 axis, double angle) {
  axis /= dm::sqrt(axis.squaredNorm());
  const double s = dm::sin(angle / 2), c = dm::cos(angle / 2);
  return Vec4(c, s * axis[0], s * axis[1], s * axis[2]);
}

Vec4 normalized(const Vec4& q) { return q / dm::sqrt(q.squaredNorm()); }

// The rotation of smallest angle taking +z to v (MuJoCo's zaxis).
Vec4 zTo(const XmlAttribute& a, Vec3 v, const std::string& element) {
  const double n = dm::sqrt(v.squaredNorm());
  if (!(n > 0)) fail(a.line, InputErrorCode::Invalid, "attribute " + a.name + " of <" + element + "> is zero");
  v /= n;
  const Vec3 axis = Vec3::UnitZ().cross(v);
  const double s = dm::sqrt(axis.squaredNorm());
  if (s < 1e-14) return v[2] > 0 ? Vec4(1, 0, 0, 0) : Vec4(0, 1, 0, 0);
  return axisAngle(axis, dm::atan2(s, v[2]));
}

// An element's orientation relative to its parent: quat, axisangle, euler, xyaxes or
// zaxis (at most one; identity when none).
Vec4 orientation(const XmlElement& e, const Compiler& c) {
  const XmlAttribute* given = nullptr;
  for (const char* n : {"quat", "axisangle", "euler", "xyaxes", "zaxis"}) {
    const XmlAttribute* a = attribute(e, n);
    if (a && given)
      fail(a->line, InputErrorCode::Conflict,
           "<" + e.name + "> has both " + given->name + " and " + a->name + " (one orientation only)");
    if (a) given = a;
  }
  if (!given) return Vec4(1, 0, 0, 0);
  const XmlAttribute& a = *given;
  if (a.name == "quat") {
    const std::vector<double> q = numbers(a, e.name, 4, 4);
    const Vec4 v(q[0], q[1], q[2], q[3]);
    if (!(v.squaredNorm() > 0)) fail(a.line, InputErrorCode::Invalid, "attribute quat of <" + e.name + "> is zero");
    return normalized(v);
  }
  if (a.name == "axisangle") {
    const std::vector<double> v = numbers(a, e.name, 4, 4);
    const Vec3 axis(v[0], v[1], v[2]);
    if (!(axis.squaredNorm() > 0)) fail(a.line, InputErrorCode::Invalid, "the axis of axisangle is zero");
    return axisAngle(axis, v[3] * c.angleUnit);
  }
  if (a.name == "euler") {
    const std::vector<double> v = numbers(a, e.name, 3, 3);
    // Lower-case axes turn with the frame (the rotation multiplies on the right),
    // upper-case ones stay fixed (on the left).
    Vec4 q(1, 0, 0, 0);
    for (int k = 0; k < 3; ++k) {
      const char axis = c.eulerseq[static_cast<std::size_t>(k)];
      const int index = std::tolower(static_cast<unsigned char>(axis)) - 'x';
      const Vec4 r = axisAngle(Vec3::Unit(index), v[static_cast<std::size_t>(k)] * c.angleUnit);
      q = std::islower(static_cast<unsigned char>(axis)) ? quat::mul(q, r) : quat::mul(r, q);
    }
    return normalized(q);
  }
  const std::vector<double> v = numbers(a, e.name, a.name == "xyaxes" ? 6 : 3, a.name == "xyaxes" ? 6 : 3);
  if (a.name == "zaxis") return zTo(a, Vec3(v[0], v[1], v[2]), e.name);
  Vec3 x(v[0], v[1], v[2]), y(v[3], v[4], v[5]);
  const double nx = dm::sqrt(x.squaredNorm());
  if (!(nx > 0)) fail(a.line, InputErrorCode::Invalid, "the x axis of xyaxes is zero");
  x /= nx;
  y -= x * x.dot(y);
  const double ny = dm::sqrt(y.squaredNorm());
  if (!(ny > 1e-12)) fail(a.line, InputErrorCode::Invalid, "the axes of xyaxes are parallel");
  y /= ny;
  Mat3 R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = x.cross(y);
  return quat::fromMatrix(R);
}

// ---- bodies ----

enum class Kind { Welded, Free, Ball, Hinge };

struct Shape {
  std::string type;
  std::vector<double> size;  // as the page draws it (mechanism_system.cpp)
};

struct Body {
  int line = 0;
  std::string name;
  int parent = -1;  // index into the bodies, −1 the world
  Vec3 pos = Vec3::Zero();
  Vec4 quat = Vec4(1, 0, 0, 0);
  Kind kind = Kind::Welded;
  int jointLine = 0;
  Vec3 jointPos = Vec3::Zero(), axis = Vec3::UnitZ();
  // The inertial frame in the body frame, its principal moments, the mass.
  double mass = 0;
  Vec3 ipos = Vec3::Zero(), moments = Vec3::Zero();
  Mat3 iR = Mat3::Identity();
  bool hasShape = false;
  Shape shape;
  bool isStatic = false;  // welded to the world (directly or through welded bodies)
  int index = -1;         // among the mechanism's bodies
  // The state at t = 0 (world frame): body frame, centre of mass, velocities.
  Vec3 x = Vec3::Zero(), com = Vec3::Zero(), v = Vec3::Zero(), w = Vec3::Zero();
  Mat3 R = Mat3::Identity();
};

// A geom's mass, principal moments and frame (in its body's frame), from its shape and
// density (MuJoCo's solid geoms).
struct GeomMass {
  double mass = 0;
  Vec3 moments = Vec3::Zero();
  Vec3 pos = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  Shape shape;
};

GeomMass readGeom(const XmlElement& g, const Compiler& c) {
  GeomMass out;
  const std::string type = text(g, "type", "sphere");
  if (type != "sphere" && type != "box" && type != "capsule" && type != "cylinder" && type != "ellipsoid")
    fail(g.line, InputErrorCode::Invalid,
         "<geom type=\"" + cutForMessage(type) + "\"> is not supported (sphere, box, capsule, cylinder, ellipsoid)");
  allowAttributes(g,
                  {"type", "size", "fromto", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass", "density"},
                  {"name", "rgba", "group", "contype", "conaffinity", "condim", "friction", "solref", "solimp",
                   "solmix", "margin", "gap", "priority"});
  const XmlAttribute* fromto = attribute(g, "fromto");
  const XmlAttribute* sizeAttr = attribute(g, "size");
  const int needed = type == "sphere" ? 1 : type == "box" || type == "ellipsoid" ? 3 : fromto ? 1 : 2;
  if (!sizeAttr) fail(g.line, InputErrorCode::Missing, "<geom> needs a size");
  std::vector<double> size = numbers(*sizeAttr, "geom", needed, 3);
  for (int k = 0; k < needed; ++k)
    if (!(size[static_cast<std::size_t>(k)] > 0 && size[static_cast<std::size_t>(k)] <= 1e3))
      fail(sizeAttr->line, InputErrorCode::Range, "attribute size of <geom>: must be in (0, 1000]");
  out.pos = vec3(g, "pos", Vec3::Zero());
  out.R = quat::matrix(orientation(g, c));
  if (fromto) {
    if (type != "capsule" && type != "cylinder")
      fail(fromto->line, InputErrorCode::Invalid, "fromto is supported for capsules and cylinders only");
    for (const char* n : {"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"})
      if (const XmlAttribute* a = attribute(g, n))
        fail(a->line, InputErrorCode::Conflict, "<geom> has both fromto and " + a->name);
    const std::vector<double> f = numbers(*fromto, "geom", 6, 6);
    const Vec3 a(f[0], f[1], f[2]), b(f[3], f[4], f[5]);
    const double half = dm::sqrt((b - a).squaredNorm()) / 2;
    if (!(half > 0)) fail(fromto->line, InputErrorCode::Invalid, "fromto of <geom> has zero length");
    out.pos = (a + b) / 2;
    out.R = quat::matrix(zTo(*fromto, b - a, "geom"));
    size.resize(2);
    size[1] = half;
  }
  const double r = size[0];
  double volume = 0;
  Vec3 unit;  // principal moments per unit mass
  if (type == "sphere") {
    volume = 4.0 / 3.0 * dm::pi * r * r * r;
    unit = Vec3::Constant(0.4 * r * r);
    out.shape = {"sphere", {r}};
  } else if (type == "box" || type == "ellipsoid") {
    const double a = size[0], b = size[1], d = size[2], k = type == "box" ? 1.0 / 3.0 : 0.2;
    volume = type == "box" ? 8 * a * b * d : 4.0 / 3.0 * dm::pi * a * b * d;
    unit = Vec3(k * (b * b + d * d), k * (a * a + d * d), k * (a * a + b * b));
    if (type == "box") out.shape = {"box", {2 * a, 2 * b, 2 * d}};
  } else {
    const double half = size[1], H = 2 * half;
    const double cylinder = dm::pi * r * r * H;
    if (type == "cylinder") {
      volume = cylinder;
      unit = Vec3((3 * r * r + H * H) / 12, (3 * r * r + H * H) / 12, r * r / 2);
      out.shape = {"cylinder", {r, H}};
    } else {
      // A cylinder and two hemispheres, each hemisphere's centre of mass 3r/8 beyond its face.
      const double sphere = 4.0 / 3.0 * dm::pi * r * r * r;
      volume = cylinder + sphere;
      const double side = cylinder * (3 * r * r + H * H) / 12 + sphere * (0.4 * r * r + H * H / 4 + 3 * H * r / 8);
      unit = Vec3(side, side, cylinder * r * r / 2 + sphere * 0.4 * r * r) / volume;
      out.shape = {"capsule", {r, H + 2 * r}};
    }
  }
  const XmlAttribute* massAttr = attribute(g, "mass");
  if (massAttr) {
    out.mass = numbers(*massAttr, "geom", 1, 1)[0];
    if (!(out.mass >= 0)) fail(massAttr->line, InputErrorCode::Range, "attribute mass of <geom>: must be ≥ 0");
  } else {
    const double density = numbers(g, "density", 1, {1000})[0];
    if (!(density >= 0)) fail(g.line, InputErrorCode::Range, "attribute density of <geom>: must be ≥ 0");
    out.mass = density * volume;
  }
  out.moments = out.mass * unit;
  return out;
}

// Principal moments (the eigenvalues) and axes of a symmetric tensor, the axes a rotation.
void principal(const Mat3& J, Vec3& moments, Mat3& axes) {
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(J);
  moments = eig.eigenvalues();
  axes = eig.eigenvectors();
  if (axes.determinant() < 0) axes.col(2) = -axes.col(2);
}

void readInertial(const XmlElement& e, const Compiler& c, Body& b) {
  allowAttributes(e, {"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass", "diaginertia", "fullinertia"});
  if (!attribute(e, "pos")) fail(e.line, InputErrorCode::Missing, "<inertial> needs pos");
  if (!attribute(e, "mass")) fail(e.line, InputErrorCode::Missing, "<inertial> needs mass");
  b.ipos = vec3(e, "pos", Vec3::Zero());
  b.mass = numbers(*attribute(e, "mass"), "inertial", 1, 1)[0];
  const XmlAttribute* diag = attribute(e, "diaginertia");
  const XmlAttribute* full = attribute(e, "fullinertia");
  if (!diag == !full) fail(e.line, InputErrorCode::Missing, "<inertial> needs one of diaginertia and fullinertia");
  const Mat3 frame = quat::matrix(orientation(e, c));
  if (diag) {
    const std::vector<double> d = numbers(*diag, "inertial", 3, 3);
    b.moments = Vec3(d[0], d[1], d[2]);
    b.iR = frame;
  } else {
    if (attribute(e, "quat") || attribute(e, "axisangle") || attribute(e, "euler") || attribute(e, "xyaxes") ||
        attribute(e, "zaxis"))
      fail(full->line, InputErrorCode::Conflict, "fullinertia takes no orientation (it is in the body frame)");
    const std::vector<double> f = numbers(*full, "inertial", 6, 6);  // ixx iyy izz ixy ixz iyz
    Mat3 J;
    J << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
    principal(J, b.moments, b.iR);
  }
}

// The inertia of the body's geoms about their common centre of mass (inertiafromgeom).
void inertiaFromGeoms(const std::vector<GeomMass>& geoms, Body& b) {
  std::vector<const GeomMass*> massive;
  for (const GeomMass& g : geoms)
    if (g.mass > 0) massive.push_back(&g);
  if (massive.empty()) return;
  if (massive.size() == 1) {  // its own frame is principal
    b.mass = massive[0]->mass;
    b.ipos = massive[0]->pos;
    b.iR = massive[0]->R;
    b.moments = massive[0]->moments;
    return;
  }
  double m = 0;
  Vec3 c = Vec3::Zero();
  for (const GeomMass* g : massive) m += g->mass, c += g->mass * g->pos;
  c /= m;
  Mat3 J = Mat3::Zero();
  for (const GeomMass* g : massive) {
    const Vec3 d = g->pos - c;
    J += g->R * g->moments.asDiagonal() * g->R.transpose() +
         g->mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  b.mass = m;
  b.ipos = c;
  principal(0.5 * (J + J.transpose()), b.moments, b.iR);
}

struct MjModel {
  std::string title;
  double h = 0.002;
  Vec3 gravity = Vec3(0, 0, -9.81);
  int optionLine = 1;
  Compiler compiler;
  std::vector<Body> bodies;  // depth-first, as MuJoCo numbers them
  int keyLine = 0, qposLine = 0, qvelLine = 0;
  std::vector<double> qpos, qvel;
};

void readBody(const XmlElement& e, int parent, MjModel& m) {
  allowAttributes(e, {"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mocap", "gravcomp"}, {"name"});
  requireWord(e, "mocap", {"false"});
  requireNeutral(e, "gravcomp");
  if (static_cast<int>(m.bodies.size()) >= 4 * limits::kMaxMechanismBodies)
    fail(e.line, InputErrorCode::TooLarge, "too many bodies");
  Body b;
  b.line = e.line;
  b.parent = parent;
  b.name = text(e, "name", "");
  b.pos = vec3(e, "pos", Vec3::Zero());
  b.quat = orientation(e, m.compiler);
  const int self = static_cast<int>(m.bodies.size());
  m.bodies.push_back(b);
  bool inertial = false;
  std::vector<GeomMass> geoms;
  std::vector<const XmlElement*> children;
  for (const XmlElement& c : e.children) {
    Body& me = m.bodies[static_cast<std::size_t>(self)];
    if (c.name == "body") {
      children.push_back(&c);
    } else if (c.name == "geom") {
      geoms.push_back(readGeom(c, m.compiler));
    } else if (c.name == "inertial") {
      if (inertial) fail(c.line, InputErrorCode::Conflict, "a body has one <inertial> at most");
      inertial = true;
      if (m.compiler.inertiaFromGeom != "true") readInertial(c, m.compiler, me);
    } else if (c.name == "joint" || c.name == "freejoint") {
      if (me.kind != Kind::Welded) fail(c.line, InputErrorCode::Invalid, "a body with several joints is not supported");
      me.jointLine = c.line;
      std::string type = "free";
      if (c.name == "freejoint") {
        allowAttributes(c, {}, {"name", "group", "align"});
      } else {
        allowAttributes(
            c,
            {"type", "pos", "axis", "damping", "armature", "stiffness", "springref", "frictionloss", "ref", "limited"},
            {"name", "group"});
        type = text(c, "type", "hinge");
        for (const char* n : {"damping", "armature", "stiffness", "springref", "frictionloss", "ref"})
          requireNeutral(c, n);
        requireWord(c, "limited", {"false", "auto"});
      }
      if (type == "free") {
        if (parent >= 0) fail(c.line, InputErrorCode::Invalid, "a free joint belongs to a body of the worldbody only");
        me.kind = Kind::Free;
      } else if (type == "ball" || type == "hinge") {
        me.kind = type == "ball" ? Kind::Ball : Kind::Hinge;
        me.jointPos = vec3(c, "pos", Vec3::Zero());
        if (type == "hinge") {
          const XmlAttribute* a = attribute(c, "axis");
          me.axis = vec3(c, "axis", Vec3::UnitZ());
          const double n = dm::sqrt(me.axis.squaredNorm());
          if (!(n > 0)) fail(a ? a->line : c.line, InputErrorCode::Invalid, "the axis of <joint> is zero");
          me.axis /= n;
        } else if (const XmlAttribute* a = attribute(c, "axis")) {
          (void)numbers(*a, "joint", 3, 3);  // a ball joint's axis is unused
        }
      } else {
        fail(c.line, InputErrorCode::Invalid,
             "<joint type=\"" + cutForMessage(type) + "\"> is not supported (ball, hinge, free)");
      }
    } else if (c.name == "site" || c.name == "camera" || c.name == "light") {
      // Markers, cameras and lights: nothing of the physics.
    } else {
      fail(c.line, InputErrorCode::Invalid, "<" + cutForMessage(c.name) + "> is not supported");
    }
  }
  Body& me = m.bodies[static_cast<std::size_t>(self)];
  if (m.compiler.inertiaFromGeom == "true" || (m.compiler.inertiaFromGeom == "auto" && !inertial))
    inertiaFromGeoms(geoms, me);
  // A drawing: the first geom whose frame is the principal frame.
  for (const GeomMass& g : geoms)
    if (!g.shape.type.empty() && (g.pos - me.ipos).cwiseAbs().maxCoeff() <= 1e-9 &&
        (g.R.transpose() * me.iR - Mat3::Identity()).cwiseAbs().maxCoeff() <= 1e-9) {
      me.hasShape = true;
      me.shape = g.shape;
      break;
    }
  for (const XmlElement* c : children) readBody(*c, self, m);
}

void readCompiler(const XmlElement& e, Compiler& c) {
  allowAttributes(
      e, {"angle", "eulerseq", "inertiafromgeom", "boundmass", "boundinertia", "balanceinertia", "settotalmass"},
      {"autolimits", "meshdir", "texturedir", "assetdir", "discardvisual", "strippath", "fusestatic", "alignfree",
       "usethread", "saveinertial", "inertiagrouprange"});
  requireWord(e, "angle", {"degree", "radian"});
  requireWord(e, "inertiafromgeom", {"auto", "true", "false"});
  requireWord(e, "balanceinertia", {"false"});
  requireNeutral(e, "boundmass");
  requireNeutral(e, "boundinertia");
  requireNeutral(e, "settotalmass", -1);
  if (text(e, "angle", "degree") == "radian") c.angleUnit = 1;
  c.inertiaFromGeom = text(e, "inertiafromgeom", "auto");
  if (const XmlAttribute* a = attribute(e, "eulerseq")) {
    bool ok = a->value.size() == 3;
    for (char ch : a->value) ok = ok && std::string("xyzXYZ").find(ch) != std::string::npos;
    if (!ok) fail(a->line, InputErrorCode::Invalid, "eulerseq must be three of x, y, z, X, Y, Z");
    c.eulerseq = a->value;
  }
}

void readOption(const XmlElement& e, MjModel& m) {
  allowAttributes(e, {"timestep", "gravity", "wind", "density", "viscosity", "integrator"},
                  {"magnetic", "impratio", "tolerance", "ls_tolerance", "noslip_tolerance", "ccd_tolerance",
                   "iterations", "ls_iterations", "noslip_iterations", "ccd_iterations", "sdf_iterations",
                   "sdf_initpoints", "cone", "jacobian", "solver", "o_margin", "o_solref", "o_solimp", "o_friction"});
  requireNeutral(e, "wind");
  requireNeutral(e, "density");
  requireNeutral(e, "viscosity");
  // vilab steps with its own integrator; MuJoCo's choice does not change the model.
  requireWord(e, "integrator", {"Euler", "RK4", "implicit", "implicitfast"});
  m.optionLine = e.line;
  if (const XmlAttribute* a = attribute(e, "timestep")) m.h = numbers(*a, "option", 1, 1)[0];
  m.gravity = vec3(e, "gravity", m.gravity);
  for (const XmlElement& c : e.children) {
    if (c.name != "flag") fail(c.line, InputErrorCode::Invalid, "<" + cutForMessage(c.name) + "> is not supported");
    // Contacts, limits, actuation and the rest act on nothing vilab imports; only
    // gravity="disable" changes the model.
    for (const XmlAttribute& a : c.attributes)
      if (a.value != "enable" && a.value != "disable")
        fail(a.line, InputErrorCode::Invalid, "flag " + cutForMessage(a.name) + " must be enable or disable");
    if (text(c, "gravity", "enable") == "disable") m.gravity = Vec3::Zero();
  }
}

void readKeyframe(const XmlElement& e, MjModel& m) {
  allowAttributes(e, {});
  for (const XmlElement& k : e.children) {
    if (k.name != "key") fail(k.line, InputErrorCode::Invalid, "<" + cutForMessage(k.name) + "> is not supported");
    allowAttributes(k, {"qpos", "qvel", "act", "ctrl", "mpos", "mquat"}, {"name", "time"});
    for (const char* n : {"act", "ctrl", "mpos", "mquat"})
      if (const XmlAttribute* a = attribute(k, n))
        fail(a->line, InputErrorCode::Invalid, "attribute " + std::string(n) + " of <key> is not supported");
    if (m.keyLine) continue;  // the first key is the initial state
    m.keyLine = m.qposLine = m.qvelLine = k.line;
    // At most 7 numbers per body (a free joint's), bounded before they are counted.
    const int most = 7 * 4 * limits::kMaxMechanismBodies;
    if (const XmlAttribute* a = attribute(k, "qpos")) m.qpos = numbers(*a, "key", 0, most), m.qposLine = a->line;
    if (const XmlAttribute* a = attribute(k, "qvel")) m.qvel = numbers(*a, "key", 0, most), m.qvelLine = a->line;
  }
}

// The pose and velocities of every body at t = 0 (mj_kinematics on the key's qpos, then
// the velocities joint by joint).
void kinematics(MjModel& m) {
  int nq = 0, nv = 0;
  for (const Body& b : m.bodies) {
    nq += b.kind == Kind::Free ? 7 : b.kind == Kind::Ball ? 4 : b.kind == Kind::Hinge ? 1 : 0;
    nv += b.kind == Kind::Free ? 6 : b.kind == Kind::Ball ? 3 : b.kind == Kind::Hinge ? 1 : 0;
  }
  const bool keyPos = !m.qpos.empty(), keyVel = !m.qvel.empty();
  if (keyPos && static_cast<int>(m.qpos.size()) != nq)
    fail(m.qposLine, InputErrorCode::Length,
         "qpos of <key> has " + std::to_string(m.qpos.size()) + " numbers; the model has nq = " + std::to_string(nq));
  if (keyVel && static_cast<int>(m.qvel.size()) != nv)
    fail(m.qvelLine, InputErrorCode::Length,
         "qvel of <key> has " + std::to_string(m.qvel.size()) + " numbers; the model has nv = " + std::to_string(nv));
  std::size_t iq = 0, iv = 0;
  auto quatAt = [&](std::size_t k) {
    const Vec4 q(m.qpos[k], m.qpos[k + 1], m.qpos[k + 2], m.qpos[k + 3]);
    if (!(q.squaredNorm() > 0)) fail(m.qposLine, InputErrorCode::Invalid, "qpos of <key> holds a zero quaternion");
    return normalized(q);
  };
  auto vel3 = [&](std::size_t k) { return keyVel ? Vec3(m.qvel[k], m.qvel[k + 1], m.qvel[k + 2]) : Vec3::Zero(); };
  for (Body& b : m.bodies) {
    const bool world = b.parent < 0;
    const Body* p = world ? nullptr : &m.bodies[static_cast<std::size_t>(b.parent)];
    const Vec3 px = world ? Vec3::Zero() : p->x, pc = world ? Vec3::Zero() : p->com;
    const Vec3 pv = world ? Vec3::Zero() : p->v, pw = world ? Vec3::Zero() : p->w;
    const Mat3 pR = world ? Mat3::Identity() : p->R;
    b.x = px + pR * b.pos;
    b.R = pR * quat::matrix(b.quat);
    Vec3 anchor = Vec3::Zero();
    if (b.kind == Kind::Free) {
      if (keyPos) {
        b.x = Vec3(m.qpos[iq], m.qpos[iq + 1], m.qpos[iq + 2]);
        b.R = quat::matrix(quatAt(iq + 3));
      }
      iq += 7;
    } else if (b.kind == Kind::Ball || b.kind == Kind::Hinge) {
      anchor = b.x + b.R * b.jointPos;
      if (keyPos) {
        const Vec4 q = b.kind == Kind::Ball ? quatAt(iq) : axisAngle(b.axis, m.qpos[iq]);
        b.R = b.R * quat::matrix(q);
        b.x = anchor - b.R * b.jointPos;
      }
      iq += b.kind == Kind::Ball ? 4 : 1;
    }
    b.com = b.x + b.R * b.ipos;
    if (b.kind == Kind::Free) {
      b.w = b.R * vel3(iv + 3);
      b.v = vel3(iv) + b.w.cross(b.com - b.x);
      iv += 6;
    } else if (b.kind == Kind::Welded) {
      b.w = pw;
      b.v = pv + pw.cross(b.com - pc);
    } else {
      const Vec3 relative = b.kind == Kind::Ball ? vel3(iv) : Vec3(b.axis * (keyVel ? m.qvel[iv] : 0.0));
      b.w = pw + b.R * relative;
      b.v = pv + pw.cross(anchor - pc) + b.w.cross(b.com - anchor);
      iv += b.kind == Kind::Ball ? 3 : 1;
    }
  }
}

Json array(const Vec3& v) { return Json::array({v[0], v[1], v[2]}); }

// MuJoCo refuses a moving body of zero inertia (mjMINVAL), so its point masses carry a
// token one: a body on a ball joint whose principal moments are all at most
// kPointMassInertia · m L² (L: the joint's distance from the centre of mass, in the body
// frame) imports as a point mass, and so does any body whose moments are all 0, provided
// the joints of its child bodies sit at its centre of mass (a point mass's joint point).
// The imported motion then differs from MuJoCo's by O(that ratio); the output's
// about.notes says which bodies were mapped.
constexpr double kPointMassInertia = 1e-6;

std::vector<bool> pointMasses(const MjModel& m) {
  std::vector<bool> point(m.bodies.size());
  for (std::size_t i = 0; i < m.bodies.size(); ++i) {
    const Body& b = m.bodies[i];
    const double L2 = (b.ipos - b.jointPos).squaredNorm();
    point[i] = b.moments.cwiseAbs().maxCoeff() == 0 ||
               (b.kind == Kind::Ball && L2 > 0 && b.moments.maxCoeff() <= kPointMassInertia * b.mass * L2);
  }
  for (const Body& c : m.bodies) {
    if (c.parent < 0 || c.kind == Kind::Free) continue;
    const std::size_t parent = static_cast<std::size_t>(c.parent);
    const Body& p = m.bodies[parent];
    // Only a ball joint holds a point mass (a hinge or a weld needs its orientation).
    const Vec3 anchor = c.pos + quat::matrix(c.quat) * c.jointPos;
    if (c.kind != Kind::Ball ||
        !((anchor - p.ipos).cwiseAbs().maxCoeff() <= 1e-12 * (1 + p.ipos.cwiseAbs().maxCoeff())))
      point[parent] = false;
  }
  return point;
}

// The scenario of the model; `lines` gets, per mechanism body and joint, the line to
// name when parseScenario refuses them.
Json scenario(const MjModel& m, std::vector<int>& bodyLines, std::vector<int>& jointLines) {
  Json bodies = Json::array(), joints = Json::array(), notes = Json::array();
  const std::vector<bool> point = pointMasses(m);
  std::vector<std::string> names;
  for (const Body& b : m.bodies)
    names.push_back(b.name.empty() ? "body" + std::to_string(&b - &m.bodies[0] + 1) : b.name);
  for (const Body& b : m.bodies) {
    if (b.isStatic) continue;
    const std::size_t i = static_cast<std::size_t>(&b - &m.bodies[0]);
    const Mat3 Rc = point[i] ? Mat3::Identity() : Mat3(b.R * b.iR);
    Json body = {{"name", names[i]},
                 {"mass", b.mass},
                 {"inertia", array(b.moments)},
                 {"position", array(b.com)},
                 {"orientation",
                  [&] {
                    const Vec4 q = quat::fromMatrix(Rc);
                    return Json::array({q[0], q[1], q[2], q[3]});
                  }()},
                 {"velocity", array(b.v)},
                 {"omega", array(Rc.transpose() * b.w)}};
    if (point[i]) {
      body["inertia"] = 0;  // a position only: no orientation, no spin
      body.erase("orientation");
      body.erase("omega");
      notes.push_back("body \"" + names[i] + "\" (line " + std::to_string(b.line) + "): inertia " +
                      formatNumber(b.moments.maxCoeff()) + " kg·m², at most 1e-6 m L², imported as a point mass");
    }
    if (b.hasShape) body["shape"] = {{"type", b.shape.type}, {"size", b.shape.size}};
    bodies.push_back(body);
    bodyLines.push_back(b.line);
    if (b.kind == Kind::Free) continue;
    const Body* p = b.parent < 0 ? nullptr : &m.bodies[static_cast<std::size_t>(b.parent)];
    const bool world = !p || p->isStatic;
    const Vec3 pc = world ? Vec3::Zero() : p->com;
    const bool pointParent = !world && point[static_cast<std::size_t>(b.parent)];
    const Mat3 pR = world || pointParent ? Mat3::Identity() : Mat3(p->R * p->iR);
    Json j = {{"type", b.kind == Kind::Welded ? "fixed"
                       : b.kind == Kind::Ball ? "ball"
                                              : "hinge"},
              {"parent", world ? std::string("world") : names[static_cast<std::size_t>(b.parent)]},
              {"child", names[i]}};
    // The joint's anchor (a welded body's: its centre of mass) in both bodies' frames.
    const Vec3 anchor = b.kind == Kind::Welded ? b.com : Vec3(b.x + b.R * b.jointPos);
    // On a point mass the joint is at its centre (pointMasses), whatever the rounding.
    j["parentPoint"] = pointParent ? array(Vec3::Zero()) : array(pR.transpose() * (anchor - pc));
    j["childPoint"] = array(Rc.transpose() * (anchor - b.com));
    if (b.kind == Kind::Hinge) {
      j["parentAxis"] = array(pR.transpose() * (b.R * b.axis));
      j["childAxis"] = array(b.iR.transpose() * b.axis);
    }
    joints.push_back(j);
    jointLines.push_back(b.jointLine ? b.jointLine : b.line);
  }
  Json params = {{"gravity", array(m.gravity)}, {"bodies", bodies}, {"joints", joints}};
  Json about = {{"title", m.title}};
  if (!notes.empty()) about["notes"] = notes;
  return Json{{"system", "mechanism"}, {"integrator", "lie-group"}, {"h", m.h}, {"params", params}, {"about", about}};
}

// "params.bodies[3].inertia" → 3 and ".inertia" for the prefix "params.bodies[".
bool indexed(const std::string& field, const std::string& prefix, std::size_t& index, std::string& rest) {
  if (field.rfind(prefix, 0) != 0) return false;
  const std::size_t close = field.find(']', prefix.size());
  if (close == std::string::npos) return false;
  index = static_cast<std::size_t>(std::strtoul(field.c_str() + prefix.size(), nullptr, 10));
  rest = field.substr(close + 1);
  if (!rest.empty() && rest[0] == '.') rest.erase(0, 1);
  return true;
}

}  // namespace

VILAB_COLD Json importMjcf(const std::string& xml) {
  if (xml.size() > limits::kMaxScenarioBytes)
    throw InputError(InputErrorCode::TooLarge, "mjcf", "is larger than 4 MiB");
  const std::size_t bad = invalidUtf8Offset(xml);
  if (bad != std::string::npos)
    throw InputError(InputErrorCode::Syntax, "mjcf", "is not UTF-8 text (byte " + std::to_string(bad) + ")");
  const XmlElement root = XmlReader(xml).document();
  if (root.name != "mujoco")
    fail(root.line, InputErrorCode::Invalid, "the root element is <" + cutForMessage(root.name) + ">, not <mujoco>");
  allowAttributes(root, {"model"});
  MjModel m;
  m.title = text(root, "model", "MuJoCo model");
  // The compiler's settings first (they apply to every angle), then the rest in order.
  for (const XmlElement& e : root.children)
    if (e.name == "compiler") readCompiler(e, m.compiler);
  for (const XmlElement& e : root.children) {
    if (e.name == "compiler" || e.name == "size" || e.name == "visual" || e.name == "statistic") continue;
    if (e.name == "option") {
      readOption(e, m);
    } else if (e.name == "worldbody") {
      allowAttributes(e, {});
      for (const XmlElement& c : e.children) {
        if (c.name == "body")
          readBody(c, -1, m);
        else if (c.name != "geom" && c.name != "site" && c.name != "camera" && c.name != "light")
          fail(c.line, InputErrorCode::Invalid, "<" + cutForMessage(c.name) + "> is not supported");
      }
    } else if (e.name == "keyframe") {
      readKeyframe(e, m);
    } else {
      fail(e.line, InputErrorCode::Invalid, "<" + cutForMessage(e.name) + "> is not supported");
    }
  }
  // Bodies welded to the world are the world (MuJoCo's static bodies); the others are
  // the mechanism's, each with a mass.
  int count = 0, jointCount = 0;
  for (Body& b : m.bodies) {
    b.isStatic = b.kind == Kind::Welded && (b.parent < 0 || m.bodies[static_cast<std::size_t>(b.parent)].isStatic);
    if (b.isStatic) continue;
    if (!(b.mass > 0))
      fail(b.line, InputErrorCode::Invalid,
           "a moving body needs a positive mass (an <inertial> or geoms with mass), got " + formatNumber(b.mass));
    if (++count > limits::kMaxMechanismBodies)
      fail(b.line, InputErrorCode::TooLarge,
           "more than " + std::to_string(limits::kMaxMechanismBodies) + " moving bodies");
    if (b.kind != Kind::Free && ++jointCount > limits::kMaxMechanismJoints)
      fail(b.line, InputErrorCode::TooLarge, "more than " + std::to_string(limits::kMaxMechanismJoints) + " joints");
  }
  if (count == 0) fail(root.line, InputErrorCode::Invalid, "the model has no moving body");
  kinematics(m);
  std::vector<int> bodyLines, jointLines;
  Json out = scenario(m, bodyLines, jointLines);
  // What the mechanism refuses (an inertia without the triangle inequality, a mechanism
  // in two pieces, h out of range) is named at its element's line.
  try {
    (void)parseScenario(out);
  } catch (const InputError& e) {
    if (e.code() == InputErrorCode::FullModule) throw;
    std::string problem = e.message().substr(std::min(e.message().size(), e.field().size() + 2));
    // The mechanism's "bodies[k]" is the MJCF's body by its name.
    const Json& named = out["params"]["bodies"];
    for (std::size_t at = problem.find("bodies["); at != std::string::npos; at = problem.find("bodies[", at + 1)) {
      std::size_t end = at + 7, k = 0;
      while (end < problem.size() && end < at + 13 && std::isdigit(static_cast<unsigned char>(problem[end])))
        k = 10 * k + static_cast<std::size_t>(problem[end++] - '0');
      if (end == at + 7 || end >= problem.size() || problem[end] != ']' || k >= named.size()) continue;
      const std::string name = "body \"" + cutForMessage(named[k]["name"].get<std::string>()) + "\"";
      problem.replace(at, end + 1 - at, name);
      at += name.size() - 1;
    }
    std::size_t k = 0;
    std::string rest;
    int line = root.line;
    std::string what;
    if (indexed(e.field(), "params.bodies[", k, rest) && k < bodyLines.size()) {
      line = bodyLines[k];
      what = "body \"" + cutForMessage(out["params"]["bodies"][k]["name"].get<std::string>()) + "\"";
    } else if (indexed(e.field(), "params.joints[", k, rest) && k < jointLines.size()) {
      line = jointLines[k];
      what = "joint of body \"" + cutForMessage(out["params"]["joints"][k]["child"].get<std::string>()) + "\"";
    } else {
      line = e.field() == "h" || e.field().rfind("params.gravity", 0) == 0 ? m.optionLine : root.line;
      what = e.field() == "h" ? "timestep" : e.field();
    }
    fail(line, e.code(), what + (rest.empty() ? "" : " " + rest) + ": " + problem);
  }
  return out;
}

}  // namespace vilab
