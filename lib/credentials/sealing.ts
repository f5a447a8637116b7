/**
 * Envelope encryption of credential values: a fresh data key per seal,
 * AES-256-GCM, with the workspace and credential ids bound in as additional
 * authenticated data, so a ciphertext moved to another credential fails to open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { canonicalJson } from '../entities/checksum.ts';
import type { SealedSecret } from '../store/model/credentials.ts';

/** Where data keys come from: AWS KMS when deployed, a local key file otherwise. */
export interface Keyring {
  generateDataKey(context: SealingContext): Promise<{ plaintext: Buffer; encrypted: Buffer; keyRef: string }>;
  decryptDataKey(encrypted: Buffer, keyRef: string, context: SealingContext): Promise<Buffer>;
}

export interface SealingContext {
  workspaceId: string;
  credentialId: string;
}

const algorithm = 'aes-256-gcm';
const additionalData = (context: SealingContext) => Buffer.from(canonicalJson(context));

export async function seal(keyring: Keyring, value: string, context: SealingContext): Promise<SealedSecret> {
  const dataKey = await keyring.generateDataKey(context);
  try {
    const iv = randomBytes(12);
    const cipher = createCipheriv(algorithm, dataKey.plaintext, iv).setAAD(additionalData(context));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return {
      version: 1,
      keyRef: dataKey.keyRef,
      encryptedKey: dataKey.encrypted.toString('base64'),
      iv: iv.toString('base64'),
      ciphertext: ciphertext.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
    };
  } finally {
    dataKey.plaintext.fill(0);
  }
}

export async function unseal(keyring: Keyring, sealed: SealedSecret, context: SealingContext): Promise<string> {
  const dataKey = await keyring.decryptDataKey(Buffer.from(sealed.encryptedKey, 'base64'), sealed.keyRef, context);
  try {
    const decipher = createDecipheriv(algorithm, dataKey, Buffer.from(sealed.iv, 'base64')).setAAD(additionalData(context));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}
