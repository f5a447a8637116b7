/** Who people sign in with, as the service says (GET /dev/v1/sign-in), and the token worker told of it. */
import type { Api } from '../api.ts';
import { consolePath } from '../../headers.ts';
import { configure } from './token-client.ts';

export type SignInSettings = NonNullable<Awaited<ReturnType<typeof readSignInSettings>>>;

/** The service's sign-in settings; null when it signs in no people (keys only). */
export const readSignInSettings = (api: Api) => api.data(api.client.GET('/dev/v1/sign-in'));

/** Where the issuer sends a person back after signing in or out: the console itself, registered with the issuer as such. */
export const consoleUrl = () => `${location.origin}${consolePath}`;

/** Tells the token worker who people sign in with; answers whether it holds a person's tokens (false after a reload). */
export const configureTokens = (settings: SignInSettings) =>
  configure({
    issuer: settings.issuer,
    clientId: settings.clientId,
    scope: settings.scope,
    redirectUri: consoleUrl(),
    ...(settings.signOutUrl && { signOutUrl: settings.signOutUrl }),
  });
