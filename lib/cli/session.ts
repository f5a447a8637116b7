/**
 * A person's session of the CLI (`rules sign-in`): which API and workspace
 * they act in, their issuer, and the tokens it gave them, kept in one file
 * between commands. The file holds a refresh token, which for hours gets new
 * ID tokens without a password: whoever reads it acts as the person until it
 * is revoked or expires. So it is readable by its user only (0600, in a
 * folder only they may enter), written whole or not at all, and its tokens
 * are never printed.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface PersonSession {
  /** The API's base URL, as given to sign-in (`http://127.0.0.1:3000`, or a deployed stage's URL). */
  api: string;
  /** The workspace every call names (`Service-Workspace`). */
  workspace: string;
  issuer: string;
  clientId: string;
  /** What the API takes (`Authorization: Bearer`). */
  idToken: string;
  refreshToken?: string;
  /** When the ID token was issued and when it expires (its `iat` and `exp`), ISO dates. */
  issuedAt: string;
  expiresAt: string;
}

/** `$RULES_SESSION_FILE`, or `rules/session.json` in the user's configuration folder (`$XDG_CONFIG_HOME`, else `~/.config`). */
export const sessionFile = (env: NodeJS.ProcessEnv) =>
  env.RULES_SESSION_FILE || join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'rules', 'session.json');

export class NotSignedIn extends Error {
  constructor(file: string) {
    super(`not signed in (no session in ${file}): sign in with \`rules sign-in --api URL --workspace ID\``);
  }
}

export async function readSession(file: string): Promise<PersonSession> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NotSignedIn(file);
    throw error;
  }
  const session = JSON.parse(text) as Partial<PersonSession>;
  if (!session.api || !session.workspace || !session.issuer || !session.clientId || !session.idToken || !session.expiresAt)
    throw new Error(`${file} is not a session of rules sign-in: sign in again`);
  return session as PersonSession;
}

/**
 * Writes the session: to a new file made 0600 from its first byte (never a
 * moment readable by others), then renamed over the old one, so that a
 * reader sees the old session or the new one, never a part.
 */
export async function writeSession(file: string, session: PersonSession): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.partial`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(session, null, 2)}\n`);
    await handle.close();
    await rename(partial, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}

export const deleteSession = (file: string) => rm(file, { force: true });
