/** The shapes the Authorization views read, taken from the generated schema so that they follow the API. */
import type { paths } from '../schema.ts';

type Ok<T> = T extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

export type Credential = Ok<paths['/dev/v1/credentials/{credentialId}']['get']>;
export type Integration = Ok<paths['/dev/v1/integrations/{integrationId}']['get']>;

/** How a credential is described in a drop-down: its name and where its key goes, which is what the provider checks. */
export const credentialLabel = (credential: Pick<Credential, 'name' | 'key' | 'placement'>) =>
  `${credential.name} (${credential.key} in the ${credential.placement === 'header' ? 'header' : 'query'})`;
