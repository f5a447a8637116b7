/**
 * The deployed keyring: data keys from AWS KMS, with the workspace and
 * credential ids as encryption context, so CloudTrail shows whose secret each
 * decryption opened and a wrapped key cannot be replayed for another credential.
 */
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { Keyring, SealingContext } from './sealing.ts';

const encryptionContext = ({ workspaceId, credentialId }: SealingContext) => ({ workspaceId, credentialId });

export function kmsKeyring(keyId: string, client = new KMSClient({})): Keyring {
  return {
    async generateDataKey(context) {
      const { Plaintext, CiphertextBlob, KeyId } = await client.send(
        new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: encryptionContext(context) }),
      );
      if (!Plaintext || !CiphertextBlob) throw new Error('KMS returned no data key');
      return { plaintext: Buffer.from(Plaintext), encrypted: Buffer.from(CiphertextBlob), keyRef: KeyId ?? keyId };
    },
    async decryptDataKey(encrypted, keyRef, context) {
      const { Plaintext } = await client.send(new DecryptCommand({ CiphertextBlob: encrypted, KeyId: keyRef, EncryptionContext: encryptionContext(context) }));
      if (!Plaintext) throw new Error('KMS returned no plaintext');
      return Buffer.from(Plaintext);
    },
  };
}
