/**
 * What a function that opens credentials for outbound calls needs: the key to
 * open them, and writes to the table, since opening a credential made before
 * hosts were required first stores the hosts it is bound to
 * (./legacy-hosts.ts). Apart from ./routes.ts, so that the routes of other
 * areas name it without building the credential schemas.
 */
export const opensCredentials = { keyAccess: 'decrypt', tableAccess: 'readWrite' } as const;
