export type OutboundFailure =
  | 'invalid_url'
  | 'invalid_request'
  | 'blocked_address'
  | 'host_not_allowed'
  | 'dns'
  | 'refused'
  | 'timeout'
  | 'tls'
  | 'too_large'
  | 'too_many_redirects'
  | 'network';

/**
 * Why an outbound call failed. The message is meant for the user and holds
 * only the redacted URL; the original Node error is deliberately not kept as
 * `cause`, so that logging this error cannot log anything it carried.
 */
export class OutboundError extends Error {
  override readonly name = 'OutboundError';

  constructor(
    readonly failure: OutboundFailure,
    message: string,
    /** The URL of the hop that failed, credential redacted. */
    readonly url: string,
    /** Node's error code (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, ...), when there was one. */
    readonly code?: string,
  ) {
    super(message);
  }
}
