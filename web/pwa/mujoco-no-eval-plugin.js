// MuJoCo's official wasm loader (npm @mujoco/mujoco) was built with Embind's dynamic
// execution: two places make functions with `new Function`, which the page's
// Content-Security-Policy (web/pwa/csp-plugin.js: no 'unsafe-eval') refuses. This
// transform replaces both with the closures Emscripten itself emits when built with
// DYNAMIC_EXECUTION=0 (its libembind.js craftInvokerFunction and libemval.js
// _emval_get_method_caller): the same calls, no eval. A loader whose text no longer
// matches stops the build, naming the file, rather than shipping an eval the policy
// would block at run time. (Its Node-only import of 'module' is also left to Node.)
const FILE = /[\\/]@mujoco[\\/]mujoco[\\/]mujoco\.js$/;

const PATCHES = [
  {
    what: 'craftInvokerFunction',
    from: `      let [args, invokerFnBody] = createJsInvoker(argTypes, isClassMethodFunc, returns, isAsync);
      var invokerFn = new Function(...args, invokerFnBody)(...closureArgs);`,
    to: `      var invokerFn = function (...callArgs) {
        checkArgCount(callArgs.length, minArgs, expectedArgCount, humanName, throwBindingError);
        var destructors = needsDestructorStack ? [] : null;
        var wired = [cppTargetFunc];
        var thisWired;
        if (isClassMethodFunc) {
          thisWired = argTypes[1]['toWireType'](destructors, this);
          wired.push(thisWired);
        }
        var argsWired = [];
        for (var i = 0; i < expectedArgCount; ++i) {
          argsWired.push(argTypes[i + 2]['toWireType'](destructors, callArgs[i]));
          wired.push(argsWired[i]);
        }
        var rv = cppInvokerFunc(...wired);
        if (needsDestructorStack) runDestructors(destructors);
        else
          for (var i = isClassMethodFunc ? 1 : 2; i < argTypes.length; ++i)
            if (argTypes[i].destructorFunction !== null) argTypes[i].destructorFunction(i === 1 ? thisWired : argsWired[i - 2]);
        if (returns) return argTypes[0]['fromWireType'](rv);
      };`,
  },
  {
    what: '_emval_get_method_caller',
    from: `      var invokerFunction = new Function(...params, functionBody)(...args);`,
    to: `      var invokerFunction = function (obj, func, destructorsRef, argsPtr) {
        var list = [];
        for (var i = 0, at = 0; i < argCount; ++i) {
          list.push(types[i].readValueFromPointer(argsPtr + at));
          at += types[i].argPackAdvance;
        }
        var rv = kind === 1 ? new func(...list) : func.call(...(kind === 0 ? [obj, ...list] : list));
        if (!retType.isVoid) return emval_returnValue(retType, destructorsRef, rv);
      };`,
  },
  {
    // Node's own module, imported only when the loader runs in Node: left to Node, so the
    // bundle has no stand-in chunk for it (and MuJoCo's chunk imports nothing).
    what: "Node's createRequire",
    from: `const { createRequire } = await import('module');`,
    to: `const nodeModule = 'module';\n  const { createRequire } = await import(/* @vite-ignore */ nodeModule);`,
  },
];

/** The loader's text without `new Function` (throws when a patch no longer applies). */
export function withoutEval(code, file = 'mujoco.js') {
  let out = code;
  for (const p of PATCHES) {
    if (!out.includes(p.from)) throw new Error(`${file}: ${p.what} is not the text this patch knows (MuJoCo updated?)`);
    out = out.replace(p.from, p.to);
  }
  if (/new Function\(/.test(out)) throw new Error(`${file}: still makes functions with new Function`);
  return out;
}

/** Vite plugin: MuJoCo's loader without eval, in the build and the dev server. */
export function mujocoNoEval() {
  return {
    name: 'vilab-mujoco-no-eval',
    transform(code, id) {
      if (!FILE.test(id.split('?')[0])) return null;
      return { code: withoutEval(code, id), map: null };
    },
  };
}
