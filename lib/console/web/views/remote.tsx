/**
 * The workspace's Git remote: its settings, a pull of the current branch, and
 * the pull's task followed live (the API's task, polled) to completed, with
 * what changed, or failed, with why.
 */
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.ts';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import { useFollowTask } from '../ui/follow-task.ts';
import { Notice } from '../ui/notice.tsx';
import { usePermit, Why } from '../ui/permitted.tsx';
import { useLoad } from '../ui/use-load.ts';

export function RemoteView() {
  const { api, session } = useConsole();
  const remote = useLoad(
    () =>
      api.data(api.client.GET('/dev/v1/remote')).catch((error: unknown) => {
        if (error instanceof ApiFailure && error.status === 404) return undefined;
        throw error;
      }),
    [],
  );
  const credentials = useLoad(() => api.data(api.client.GET('/dev/v1/credentials', { params: { query: { pageSize: 100 } } })), []);
  const [taskId, setTaskId] = useState<string>();
  const [pullError, setPullError] = useState<unknown>();
  // The settings form keeps what it saved: reading the remote again would only remount it.
  const [savedOnce, setSavedOnce] = useState(false);
  const pullPermit = usePermit('pullRemoteV1');

  const pull = async () => {
    setPullError(undefined);
    try {
      setTaskId((await api.data(api.client.POST('/dev/v1/remote/pull', { params: { header: { 'Service-Branch': session.branch } }, body: {} }))).taskId);
    } catch (error) {
      setPullError(error);
    }
  };

  return (
    <section aria-labelledby="remote-title">
      <h1 id="remote-title">Remote</h1>
      <Failure error={remote.error} title="Could not read the remote" />
      {!remote.loading && !remote.error && (
        <RemoteSettings
          url={remote.value?.url ?? ''}
          credentialId={remote.value?.credentialId ?? ''}
          credentials={(credentials.value ?? []).filter((c) => c.status === 'active' && c.placement === 'header')}
          onSaved={() => setSavedOnce(true)}
        />
      )}
      <div class="card">
        <h2>Pull</h2>
        <p>
          Pulls the branch <strong>{session.branch || 'default'}</strong> from the remote: rules and workflows the commit adds, changes or removes are written
          to this branch.
        </p>
        <button type="button" onClick={pull} disabled={(!remote.value && !savedOnce) || !pullPermit.allowed} aria-describedby={pullPermit.describedBy}>
          Pull {session.branch || 'the default branch'}
        </button>
        <Why permits={[pullPermit]} />
        <Failure error={pullError} title="The pull did not start" />
        {taskId && <TaskProgress key={taskId} taskId={taskId} />}
      </div>
    </section>
  );
}

function RemoteSettings(props: { url: string; credentialId: string; credentials: { id: string; name: string }[]; onSaved(): void }) {
  const { api } = useConsole();
  const [url, setUrl] = useState(props.url);
  const [credentialId, setCredentialId] = useState(props.credentialId);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const permit = usePermit('putRemote');
  return (
    <form
      class="card"
      aria-label="Remote settings"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        setSaved(false);
        try {
          await api.data(api.client.PUT('/dev/v1/remote', { body: { url: url.trim(), ...(credentialId && { credentialId }) } }));
          setSaved(true);
          props.onSaved();
        } catch (failure) {
          setError(failure);
        }
      }}
    >
      <label>
        Repository URL
        <input type="url" required size={48} value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://git.example.com/team/rules.git" />
      </label>
      <label>
        Credential sent to it
        <select value={credentialId} onChange={(e) => setCredentialId(e.currentTarget.value)}>
          <option value="">None (a public repository)</option>
          {props.credentials.map((credential) => (
            <option key={credential.id} value={credential.id}>
              {credential.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={!permit.allowed} aria-describedby={permit.describedBy}>
        Save remote
      </button>
      <Why permits={[permit]} />
      {saved && <Notice>Saved.</Notice>}
      <Failure error={error} title="Could not save the remote" />
    </form>
  );
}

/** The pull's task, followed until it ends. */
function TaskProgress({ taskId }: { taskId: string }) {
  const { task, error } = useFollowTask(taskId);
  return (
    <div aria-live="polite" class="task">
      <p>
        Task <code>{taskId}</code>: <span class={`badge ${task?.taskState ?? 'pending'}`}>{task?.taskState ?? 'starting'}</span>
      </p>
      <Failure error={error} title="Could not follow the task" />
      {task?.taskState === 'failed' && (
        <div class="failure" role="alert">
          <strong>The pull failed</strong>
          <p>{task.error}</p>
        </div>
      )}
      {task?.taskState === 'completed' && task.summary && (
        <>
          <p>
            Pulled commit <code>{task.commit?.slice(0, 12)}</code>
            {task.finishedAt && task.startedAt && ` in ${((Date.parse(task.finishedAt) - Date.parse(task.startedAt)) / 1000).toFixed(1)} s`}.
          </p>
          <table>
            <caption>What changed on the branch</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Added</th>
                <th scope="col">Updated</th>
                <th scope="col">Deleted</th>
                <th scope="col">Unchanged</th>
              </tr>
            </thead>
            <tbody>
              {(['rule', 'workflow'] as const).map((type) => (
                <tr key={type}>
                  <th scope="row">{type === 'rule' ? 'Rules' : 'Workflows'}</th>
                  <td>{task.summary![type].added}</td>
                  <td>{task.summary![type].updated}</td>
                  <td>{task.summary![type].deleted}</td>
                  <td>{task.summary![type].unchanged}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {task.summary.ignoredFolders.length > 0 && <p class="muted">Folders ignored: {task.summary.ignoredFolders.join(', ')}</p>}
        </>
      )}
    </div>
  );
}
