/** Envelope encryption of credential values, with the local and the KMS keyring. */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kmsKeyring } from '../../lib/credentials/kms-keyring.ts';
import { localKeyring } from '../../lib/credentials/local-keyring.ts';
import { seal, unseal } from '../../lib/credentials/sealing.ts';
import { valueHint } from '../../lib/credentials/service.ts';

const keyFile = () => join(mkdtempSync(join(tmpdir(), 'rules-keys-')), 'credentials.key');
const context = { workspaceId: 'acme', credentialId: 'cred_1' };

describe('local keyring', () => {
  it('round-trips any value, and stores neither the value nor the data key in the clear', async () => {
    const keyring = localKeyring(keyFile());
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 300 }), async (value) => {
        const sealed = await seal(keyring, value, context);
        expect(JSON.stringify(sealed)).not.toContain(value.length >= 4 ? value : '\u0000none');
        expect(await unseal(keyring, sealed, context)).toBe(value);
      }),
      { numRuns: 50 },
    );
  });

  it('uses a fresh data key and IV for every seal', async () => {
    const keyring = localKeyring(keyFile());
    const [a, b] = [await seal(keyring, 'same-secret', context), await seal(keyring, 'same-secret', context)];
    expect(a.encryptedKey).not.toBe(b.encryptedKey);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('refuses to open a value moved to another credential or workspace, or tampered with', async () => {
    const keyring = localKeyring(keyFile());
    const sealed = await seal(keyring, 'sk_live_abcdef', context);
    await expect(unseal(keyring, sealed, { ...context, credentialId: 'cred_2' })).rejects.toThrow();
    await expect(unseal(keyring, sealed, { ...context, workspaceId: 'other' })).rejects.toThrow();
    const flipped = Buffer.from(sealed.ciphertext, 'base64');
    flipped[0]! ^= 1;
    await expect(unseal(keyring, { ...sealed, ciphertext: flipped.toString('base64') }, context)).rejects.toThrow();
  });

  it('keeps its master key in an owner-only file, reused on the next start', async () => {
    const file = keyFile();
    const sealed = await seal(localKeyring(file), 'persisted', context);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await unseal(localKeyring(file), sealed, context)).toBe('persisted');
    expect(readFileSync(file, 'utf8')).not.toContain('persisted');
    await expect(unseal(localKeyring(keyFile()), sealed, context)).rejects.toThrow();
  });
});

describe('KMS keyring', () => {
  it('asks KMS for AES-256 data keys bound to the workspace and credential, and opens with the same context', async () => {
    const sent: unknown[] = [];
    const dataKey = Buffer.alloc(32, 7);
    const client = {
      send: async (command: unknown) => {
        sent.push(command);
        if (command instanceof GenerateDataKeyCommand)
          return { Plaintext: Uint8Array.from(dataKey), CiphertextBlob: Uint8Array.from([1, 2, 3]), KeyId: 'arn:aws:kms:eu-west-1:1:key/k' };
        if (command instanceof DecryptCommand) return { Plaintext: Uint8Array.from(dataKey) };
        throw new Error('unexpected command');
      },
    } as unknown as KMSClient;
    const keyring = kmsKeyring('alias/credentials', client);
    const sealed = await seal(keyring, 'pk_test_123456', context);
    expect(sealed.keyRef).toBe('arn:aws:kms:eu-west-1:1:key/k');
    expect(await unseal(keyring, sealed, context)).toBe('pk_test_123456');
    const [generate, decrypt] = sent as [GenerateDataKeyCommand, DecryptCommand];
    expect(generate.input).toEqual({ KeyId: 'alias/credentials', KeySpec: 'AES_256', EncryptionContext: context });
    expect(decrypt.input).toMatchObject({ KeyId: 'arn:aws:kms:eu-west-1:1:key/k', EncryptionContext: context });
    expect(Buffer.from(decrypt.input.CiphertextBlob!)).toEqual(Buffer.from([1, 2, 3]));
  });
});

describe('value hint', () => {
  it('shows at most the last 4 characters, and fewer of short values', () => {
    expect(valueHint('sk_live_0123456789abcdef')).toBe('••••cdef');
    expect(valueHint('abcdefg')).toBe('••••g');
    expect(valueHint('abc')).toBe('••••');
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 100 }), (value) => {
        const shown = valueHint(value).slice(4);
        expect(shown.length).toBeLessThanOrEqual(Math.min(4, value.length / 4));
        expect(value.endsWith(shown)).toBe(true);
      }),
    );
  });
});
