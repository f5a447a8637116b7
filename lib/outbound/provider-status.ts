/**
 * A short plain explanation of a provider's HTTP status, for the result of a
 * credential test or an API-request step. 401 and 403 follow the interface
 * (section 7): they are the two answers a user acts on differently.
 */
export function describeProviderStatus(status: number): string {
  if (status >= 200 && status < 300) return 'the provider accepted the request';
  switch (status) {
    case 401:
      return 'the key is wrong or revoked';
    case 403:
      return 'the key is valid but lacks the permission';
    case 404:
      return 'the provider has nothing at this URL; check the URL';
    case 405:
      return 'the provider does not allow this method at this URL';
    case 407:
      return 'a proxy between this service and the provider requires authentication';
    case 408:
      return 'the provider timed out waiting for the request; try again';
    case 429:
      return 'the provider is limiting the rate of calls; try again later';
  }
  if (status >= 300 && status < 400) return 'the provider redirected the request elsewhere';
  if (status === 400 || status === 422) return 'the provider rejected the request as malformed';
  if (status >= 400 && status < 500) return `the provider refused the request (HTTP ${status})`;
  if (status >= 500 && status < 600) return 'the provider failed to handle the request; try again later';
  return `the provider answered with an unexpected status (HTTP ${status})`;
}
