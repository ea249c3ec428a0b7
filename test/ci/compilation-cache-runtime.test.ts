import { Script } from 'node:vm';

/*
 * test/support/compilation-cache-runtime.js compiles every module of the test run. What it must
 * keep from jest's own compiler: stack frames that name the right file and line, the module
 * scope jest injects, and a fresh evaluation of each module in each file's context.
 */

function thrownHere(): Error {
  return new Error('here');
}

describe('the compilation-cache runtime', () => {
  it('is the runtime jest runs this file with', () => {
    const config = require('../../package.json').jest;
    expect(config.runtime).toBe('<rootDir>/test/support/compilation-cache-runtime.js');
  });

  it('keeps file names and line numbers in stack traces (thrownHere builds its Error on line 10)', () => {
    expect(thrownHere().stack).toMatch(/test\/ci\/compilation-cache-runtime\.test\.ts:10:\d+/);
  });

  it('gives each module the module scope jest injects', () => {
    expect(typeof jest.fn).toBe('function');
    expect(__filename).toMatch(/compilation-cache-runtime\.test\.ts$/);
    expect(module.exports).toBe(exports);
  });

  it('evaluates a module afresh after the registry is reset, even from cached code', () => {
    const first = require('../../domain/currencies');
    jest.resetModules();
    const second = require('../../domain/currencies');
    expect(second).not.toBe(first);
    expect(Object.keys(second)).toEqual(Object.keys(first));
  });

  it('compiles through vm.Script, which V8 serves from its compilation cache', () => {
    const spy = jest.spyOn(Script.prototype, 'runInContext');
    try {
      jest.isolateModules(() => require('../../domain/currencies'));
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
