import { createHash, randomBytes } from 'node:crypto';

/** Keys are stored only as this hash; the key itself is shown once, when made. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** 256 random bits, with a prefix that lets secret scanners recognise a leaked key. */
export const generateApiKey = (): string => `rsk_${randomBytes(32).toString('base64url')}`;

export const generateKeyId = (): string => `key_${randomBytes(8).toString('hex')}`;
