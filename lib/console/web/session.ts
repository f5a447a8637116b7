/**
 * Who is signed in, kept in sessionStorage, which the browser clears when the
 * tab's session ends: an API key and the branch, or a person (their workspace
 * and name to show) and the branch. A person's tokens are never here: the
 * token worker holds them (./people/token-worker.ts). The key is never put in
 * a URL, a cookie or localStorage.
 */
export interface Session {
  /** The Service-API-Key the page signs its calls with; absent for a person. */
  apiKey?: string;
  /** A person signed in at the issuer: their calls go through the token worker. */
  person?: { workspace: string; name: string };
  branch: string;
}

const storageKey = 'rules-console.session';

/** A session as stored, or undefined for anything else (a key or a person it names is required). */
export function loadSession(): Session | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Partial<Session> | null;
    const branch = typeof saved?.branch === 'string' ? saved.branch : '';
    if (saved && typeof saved.apiKey === 'string' && saved.apiKey) return { apiKey: saved.apiKey, branch };
    const person = saved?.person;
    if (person && typeof person.workspace === 'string' && person.workspace && typeof person.name === 'string') return { person, branch };
    return undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined) {
  if (session) sessionStorage.setItem(storageKey, JSON.stringify(session));
  else sessionStorage.removeItem(storageKey);
}

/** What a session is known by, for what the page reads again when it changes: the key, or the person and their workspace. */
export const sessionIdentity = (session: Session | undefined) => session?.apiKey ?? (session?.person && `${session.person.workspace}\n${session.person.name}`);
