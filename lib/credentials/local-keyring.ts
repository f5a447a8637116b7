/**
 * The local runtime's keyring: a 256-bit master key in a file wraps each data
 * key with AES-256-GCM, as KMS would. The file is made on first use, readable
 * by its owner only.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { canonicalJson } from '../entities/checksum.ts';
import type { Keyring, SealingContext } from './sealing.ts';

export const localKeyRef = 'local';

function masterKey(path: string): Buffer {
  if (!existsSync(path)) writeFileSync(path, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${path} does not hold a 256-bit key`);
  return key;
}

export function localKeyring(keyFile: string): Keyring {
  const master = masterKey(keyFile);
  const aad = (context: SealingContext) => Buffer.from(canonicalJson(context));
  return {
    async generateDataKey(context) {
      const plaintext = randomBytes(32);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(aad(context));
      const wrapped = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return { plaintext, encrypted: Buffer.concat([iv, cipher.getAuthTag(), wrapped]), keyRef: localKeyRef };
    },
    async decryptDataKey(encrypted, keyRef, context) {
      if (keyRef !== localKeyRef) throw new Error(`this secret was sealed with key ${keyRef}, not the local key`);
      const decipher = createDecipheriv('aes-256-gcm', master, encrypted.subarray(0, 12)).setAAD(aad(context));
      decipher.setAuthTag(encrypted.subarray(12, 28));
      return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]);
    },
  };
}
