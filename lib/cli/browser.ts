/**
 * Opens a URL in the person's browser for a sign-in: the command in
 * `$BROWSER` when set (the convention of xdg-utils and Python's webbrowser:
 * `%s` stands for the URL, else the URL is its last argument; of a
 * colon-separated list, the first), else `xdg-open` (Linux) or `open`
 * (macOS). The URL goes to the command as an argument, never into the shell's
 * text. The sign-in prints the URL as well, since no command may open a
 * browser (a remote shell, a container).
 */
import { spawn } from 'node:child_process';

/** Starts the browser and does not wait for it; `say` is told when it could not be started. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv, say: (line: string) => void): void {
  const chosen = env.BROWSER?.split(':')[0]?.trim();
  const [command, args] = chosen
    ? ['/bin/sh', ['-c', chosen.includes('%s') ? chosen.replaceAll('%s', '"$1"') : `${chosen} "$1"`, 'sh', url]]
    : [process.platform === 'darwin' ? 'open' : 'xdg-open', [url]];
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'], detached: true, env: { ...process.env, ...env } });
  const shown = chosen ?? command;
  child.once('error', () => say(`(could not start ${shown}: open the address above yourself)`));
  child.once('exit', (code) => {
    if (code) say(`(${shown} ended with exit code ${code}: open the address above yourself)`);
  });
  child.unref();
}
