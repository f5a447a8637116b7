/** What the page and the token worker (`./token-worker.ts`) say to each other: no message from the worker carries a token. */
import type { PendingSignIn } from '../../../auth/authorization-request.ts';

/** Who people sign in with (GET /dev/v1/sign-in), and where the issuer sends them back: the console. */
export interface SignInConfig {
  issuer: string;
  clientId: string;
  scope: string;
  signOutUrl?: string;
  redirectUri: string;
}

/** What a sign-in needs back when the issuer returns (the PKCE verifier, state and nonce): kept by the page in sessionStorage across the redirect, and removed then. */
export type { PendingSignIn };

/** Who signed in, as their ID token's claims say: for the page to show, never to authenticate with. */
export interface SignedInPerson {
  subject: string;
  name?: string;
  email?: string;
  expiresAt: number;
}

/** An API call the page asks the worker to make as the person. */
export interface SentRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body?: string;
}

export interface ReceivedResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

export type SignInRequest = { id: number } & (
  | { type: 'configure'; config: SignInConfig }
  | { type: 'start' }
  | { type: 'finish'; callbackUrl: string; pending: PendingSignIn; workspace: string }
  | { type: 'call'; request: SentRequest }
  | { type: 'signOut'; postSignOutUrl: string }
);

export interface SignInAnswer {
  id: number;
  result?: unknown;
  error?: string;
}
