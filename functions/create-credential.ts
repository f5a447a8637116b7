import { keyringFromEnv } from '../lib/credentials/keyring.ts';
import { createCredential } from '../lib/credentials/service.ts';
import { endpoint } from '../lib/http/endpoint.ts';
import { credentialRoutes } from '../lib/credentials/routes.ts';

export const handler = endpoint(credentialRoutes.createCredential, async ({ body, principal, store, auditor }) => {
  const { credential, created } = await createCredential({ store, keyring: keyringFromEnv() }, principal.workspace.id, body, { auditor });
  return { data: credential, status: created ? 201 : 200 };
});
