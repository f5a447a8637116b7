/**
 * Which port each local server listens on, and what happens when it is taken:
 * a port the user set gets one line naming the setting to change; a default
 * port of a helper (the embedded DynamoDB, the demo Git server) gives way to a
 * free one, which the start banner prints.
 */
export interface PortChoice {
  port: number;
  /** The environment variable that sets it, named when the port is taken. */
  setting: string;
  /** Whether a free port may stand in when this one is taken. */
  orFree: boolean;
}

/** A port setting that cannot be used; its message is one line naming the setting. */
export class PortSettingError extends Error {
  override name = 'PortSettingError';
}

export class PortInUse extends PortSettingError {
  constructor(
    readonly port: number,
    readonly setting: string,
  ) {
    super(`port ${port} is in use: stop what holds it, or set ${setting} to another port (e.g. ${setting}=${port + 10} npm start)`);
  }
}

/** The choice for `setting`: the value the environment gives (never replaced), else `fallback` (replaced by a free port when `orFree`). */
export function portFromEnv(setting: string, fallback: number, orFree: boolean, env: NodeJS.ProcessEnv = process.env): PortChoice {
  const value = env[setting];
  if (value === undefined || value === '') return { port: fallback, setting, orFree };
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new PortSettingError(`${setting} must be a port number from 0 to 65535, not "${value}"`);
  return { port, setting, orFree: false };
}

const isAddressInUse = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';

/** Starts a server with `listen(port)`; a plain number is used as given, a choice as it says. */
export async function listenOn<T>(choice: number | PortChoice, listen: (port: number) => Promise<T>): Promise<T> {
  if (typeof choice === 'number') return listen(choice);
  try {
    return await listen(choice.port);
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    if (choice.orFree) return listen(0);
    throw new PortInUse(choice.port, choice.setting);
  }
}
