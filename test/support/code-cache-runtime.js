'use strict';
// Jest's module runtime, with V8's code cache kept across the test files of one jest worker.
//
// Each test file gets a fresh module registry, so every file compiles again the same few thousand
// modules (the Temporal SDK and its protobufs, Prisma's client, zod, the API): about 0.6 s of CPU
// per file, a third of what importing the platform costs (docs/benchmarks.md, "Compiling every
// module again in every test file"). Jest compiles each module with `vm.compileFunction` and keeps
// no cache; V8 can reuse its compilation of the same source when handed the cached data of an
// earlier compile. The modules still run anew in every file, each in the file's own context:
// only the parsing is shared, so no state leaks from one file to the next. V8 rejects cached data
// that does not match the source (and then compiles it as before); the cache is also keyed by the
// exact source, so an edited file is never served stale code.
const { dirname } = require('node:path');
const vm = require('node:vm');

// The jest-runtime that jest-runner itself loads, whatever version the lockfile resolved.
const jestRuntimePath = require.resolve('jest-runtime', { paths: [dirname(require.resolve('jest-runner'))] });
const JestRuntime = require(jestRuntimePath).default;

const compileFunction = vm.compileFunction;
/** Per jest worker: filename → the source compiled and V8's cached data for it. */
const codeCache = new Map();

class CodeCacheRuntime extends JestRuntime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    const compile = executor.compile.bind(executor);
    // Jest's own compile (its error handling, dynamic imports) runs unchanged; only while it runs,
    // its call to vm.compileFunction gets the cached data. Compiling is synchronous, so no other
    // compile can see the substitute.
    executor.compile = (source, filename) => {
      vm.compileFunction = (code, params, options) => {
        const cached = codeCache.get(filename);
        const hit = cached !== undefined && cached.source === code;
        const fn = compileFunction(code, params, hit ? { ...options, cachedData: cached.data } : { ...options, produceCachedData: true });
        if (!hit && fn.cachedDataProduced) codeCache.set(filename, { source: code, data: fn.cachedData });
        return fn;
      };
      try {
        return compile(source, filename);
      } finally {
        vm.compileFunction = compileFunction;
      }
    };
  }
}

module.exports = CodeCacheRuntime;
module.exports.default = CodeCacheRuntime;
