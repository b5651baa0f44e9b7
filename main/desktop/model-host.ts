import type { HostProcess, HostSpawner } from '../core/models/local/host/client.js';
import type { FromHost } from '../core/models/local/host/types.js';

/** What the desktop takes of Electron's `utilityProcess` (injected: this file never imports electron). */
export interface UtilityProcessLike {
  fork(
    modulePath: string,
    args?: string[],
    options?: { serviceName?: string; stdio?: 'ignore' | 'inherit' | 'pipe' },
  ): {
    readonly pid: number | undefined;
    postMessage(message: unknown): void;
    on(event: 'message', listener: (message: unknown) => void): unknown;
    once(event: 'exit', listener: (code: number) => void): unknown;
    kill(): boolean;
  };
}

/**
 * The local models' process on the desktop: an Electron utility process (a Node process Chromium's
 * way, ended with the app), so a native crash in llama.cpp never takes the window down.
 */
export function utilityProcessHost(utilityProcess: UtilityProcessLike): HostSpawner {
  return (script): HostProcess => {
    const child = utilityProcess.fork(script, [], { serviceName: 'Parley local models', stdio: 'ignore' });
    let exited = false;
    const exits: ((how: string) => void)[] = [];
    child.once('exit', (code) => {
      exited = true;
      for (const listener of exits) listener(`exit code ${code}`);
    });
    return {
      get pid() {
        return child.pid;
      },
      send: (message) => {
        if (!exited) child.postMessage(message);
      },
      onMessage: (listener) => child.on('message', (message) => listener(message as FromHost)),
      onExit: (listener) => exits.push(listener),
      kill: () => {
        if (!exited) child.kill();
      },
    };
  };
}
