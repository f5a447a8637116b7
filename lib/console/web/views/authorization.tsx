/**
 * The security area: the workspace's credentials, made with "New
 * Authentication", rotated, tested against a provider and revoked; and the
 * integrations that place them on calls. Both lists are read here once, so a
 * credential made from an integration's drop-down shows in the table at once.
 */
import '../authorization/authorization.css';
import { useConsole } from '../context.ts';
import { CredentialsSection } from '../authorization/credentials.tsx';
import { IntegrationsSection } from '../authorization/integrations.tsx';
import { Failure } from '../ui/failure.tsx';
import { useLoad } from '../ui/use-load.ts';

/** Enough for a workspace's credentials and integrations on one page; the API's own maximum page. */
const pageSize = 100;

export function AuthorizationView() {
  const { api } = useConsole();
  const credentials = useLoad(() => api.page(api.client.GET('/dev/v1/credentials', { params: { query: { pageSize } } })), []);
  const integrations = useLoad(() => api.page(api.client.GET('/dev/v1/integrations', { params: { query: { pageSize } } })), []);
  return (
    <section aria-labelledby="authorization-title" class="authorization">
      <h1 id="authorization-title">Authorization</h1>
      <p class="muted">
        API keys the workspace's steps and integrations send to providers. A value is sealed when saved and never shown again: only its last characters are.
      </p>
      <Failure error={credentials.error} title="Could not list the credentials" />
      {credentials.value && (
        <>
          <CredentialsSection credentials={credentials.value.data} onChanged={credentials.reload} />
          {credentials.value.totalCount > credentials.value.data.length && (
            <p class="muted">
              Showing {credentials.value.data.length} of {credentials.value.totalCount} credentials.
            </p>
          )}
        </>
      )}
      <Failure error={integrations.error} title="Could not list the integrations" />
      {integrations.value && (
        <IntegrationsSection
          integrations={integrations.value.data}
          credentials={credentials.value?.data ?? []}
          onChanged={integrations.reload}
          onCredentialMade={credentials.reload}
        />
      )}
    </section>
  );
}
