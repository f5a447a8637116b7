/**
 * The one way this service calls external providers: credential tests,
 * workflow API-request steps, the Git remote of remote pull. It places an
 * API-key credential as configured, refuses internal addresses (SSRF),
 * follows redirects safely, bounds time and size, and never logs the key.
 */
export {
  createOutboundClient,
  type OutboundClient,
  type OutboundCredential,
  type OutboundMethod,
  type OutboundOptions,
  type OutboundRequest,
  type OutboundResponse,
} from './client.ts';
export { OutboundError, type OutboundFailure } from './errors.ts';
export { describeProviderStatus } from './provider-status.ts';
export { redactUrl } from './url.ts';
export { blockedAddressMessage, classifyAddress, metadataHost, type AddressClass, type AddressVerdict, type LookupAll } from './address-policy.ts';
