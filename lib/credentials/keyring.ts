import { kmsKeyring } from './kms-keyring.ts';
import { localKeyring } from './local-keyring.ts';
import type { Keyring } from './sealing.ts';

let fromEnv: Keyring | undefined;

/** CREDENTIALS_KMS_KEY_ID on AWS (set by the stack), CREDENTIALS_KEY_FILE locally (set by the local runtime). */
export function keyringFromEnv(env: NodeJS.ProcessEnv = process.env): Keyring {
  if (!fromEnv) {
    if (env.CREDENTIALS_KMS_KEY_ID) fromEnv = kmsKeyring(env.CREDENTIALS_KMS_KEY_ID);
    else if (env.CREDENTIALS_KEY_FILE) fromEnv = localKeyring(env.CREDENTIALS_KEY_FILE);
    else throw new Error('no credentials key: set CREDENTIALS_KMS_KEY_ID or CREDENTIALS_KEY_FILE');
  }
  return fromEnv;
}
