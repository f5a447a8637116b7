/**
 * Follows a task (a pull's, or a queued workflow run's): asks for it at once, then every second until
 * it ends (completed or failed), and stops asking when the page leaves it
 * (unmount, or another task), so that no request outlives the view. A failed
 * request stops the following and is kept to show, with a way to ask again;
 * so does a task still running after `giveUpAfterMs`, when the view bounds
 * its wait (a replay's).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useConsole } from '../context.ts';
import type { paths } from '../schema.ts';

export type Task = paths['/dev/v1/tasks/{taskId}']['get']['responses'][200]['content']['application/json']['data'];

const pollEveryMs = 1000;

export const taskEnded = (task: Task) => task.taskState === 'completed' || task.taskState === 'failed';

export function useFollowTask(taskId: string | undefined, onEnd: (task: Task) => void = () => undefined, giveUpAfterMs = Infinity) {
  const { api } = useConsole();
  const [task, setTask] = useState<Task>();
  const [error, setError] = useState<unknown>();
  const [round, setRound] = useState(0);
  // The latest callback, so that a new one from the parent's render does not restart the following.
  const ended = useRef(onEnd);
  ended.current = onEnd;

  useEffect(() => {
    setTask(undefined);
    setError(undefined);
    if (!taskId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = Date.now() + giveUpAfterMs;
    const ask = async () => {
      try {
        const current = await api.data(api.client.GET('/dev/v1/tasks/{taskId}', { params: { path: { taskId } } }));
        if (!live) return;
        setTask(current);
        if (taskEnded(current)) ended.current(current);
        else if (Date.now() + pollEveryMs > deadline)
          setError(
            new Error(`The task is still ${current.taskState} after ${Math.round(giveUpAfterMs / 1000)} s; the page stopped asking. Ask again to follow it.`),
          );
        else timer = setTimeout(ask, pollEveryMs);
      } catch (failure) {
        if (live) setError(failure);
      }
    };
    void ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [taskId, round]);

  return { task, error, retry: () => setRound((n) => n + 1) };
}
