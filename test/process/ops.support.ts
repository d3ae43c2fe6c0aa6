import { spawn } from 'node:child_process';
import { freePort } from '../helpers/process.js';
import { nodeArgsFor } from '../helpers/spawn-script.js';
import { withDirectUrl } from '../helpers/stores.js';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <script> …args` to its end (src/ scripts from the run's build), with stdout and stderr kept apart. */
export function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor(script), ...args], {
      env: {
        ...process.env,
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        ...withDirectUrl(env),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not finish in ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    // 'close' comes after the pipes are drained ('exit' may come before).
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export const cli = (args: string[], env: Record<string, string>, timeoutMs?: number) =>
  runNode('src/cli.ts', args, env, timeoutMs);

/** Node prints deprecation warnings of dependencies on stderr; they are not our messages. */
export const ownLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter(
      (l) =>
        l.trim() !== '' &&
        !/Deprecation|DeprecationWarning|FastifyWarning|--trace-warnings|--trace-deprecation/.test(l),
    );

export interface Running {
  url: string;
  stdout(): string;
  stderr(): string;
  /** Sends the signal and answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Like helpers/process.ts spawnServer, but with stdout and stderr apart and the exit code kept. */
export async function startProcess(script: string, args: string[], env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgsFor(script), ...args], {
    env: {
      ...process.env,
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...withDirectUrl(env),
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${stdout}${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return closed;
    },
  };
}
