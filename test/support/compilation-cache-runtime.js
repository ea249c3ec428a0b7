'use strict';
/*
 * Jest's runtime, compiling each module with `vm.Script` instead of `vm.compileFunction`.
 *
 * Every test file loads the whole platform (its routers, Prisma, Temporal's SDK, Fastify) into
 * a context of its own, and jest 30 compiles each of those modules with `vm.compileFunction`,
 * which V8's compilation cache never serves (nodejs/node#35375): a worker compiles the same
 * few thousand modules again for each of its test files. A `vm.Script` is looked up in that
 * cache by its source and name, so a worker's later test files reuse the code the first one
 * compiled; each still runs every module afresh in its own context, so no state is shared.
 * The function handed back is the one `compileFunction` would have built: the same parameters,
 * the same body, the same file name in its stack frames.
 *
 * Modules with a dynamic `import()` keep jest's own path, which gives them an
 * `importModuleDynamically` that a cached script cannot.
 */
const vm = require('node:vm');
const JestRuntime = require('jest-runtime').default;

const WRAPPER = 'Object.<anonymous>';

class CompilationCacheRuntime extends JestRuntime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    if (!executor || typeof executor.compile !== 'function' || !Array.isArray(executor.injectedModuleParameters)) {
      throw new Error('jest-runtime changed shape (no executor.compile): update test/support/compilation-cache-runtime.js');
    }
    const compileFunction = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => {
      const context = executor.environment.getVmContext();
      if (context == null || scriptSource.includes('import(')) return compileFunction(scriptSource, filename);
      const parameters = executor.injectedModuleParameters.join(',');
      const script = new vm.Script(`({${JSON.stringify(WRAPPER)}:(function(${parameters}){${scriptSource}\n})});`, { filename });
      return script.runInContext(context)[WRAPPER];
    };
  }
}

module.exports = CompilationCacheRuntime;
module.exports.default = CompilationCacheRuntime;
