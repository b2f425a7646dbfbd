/**
 * The dashboard's source choice ("Uploaded exports" or "App Store Connect: <app>" for each app
 * imported at least once) and the view of an imported app, loaded on demand: someone who only
 * uploads exports never downloads it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { lazyScreen } from '@/components/lazy-screen';
import { Label } from '@/components/ui/label';
import {
  openAscDashboard,
  showUploads,
  useDashboardState,
} from '@/features/dashboard/dashboard.store';
import { ascConnectionsQuery } from './asc.api';
import { SELECT_CLASS } from './select.styles';

/** The dashboard of one imported app (`asc-dashboard.tsx`), loaded on demand. */
export const AscDashboard = lazyScreen(
  () => import('./asc-dashboard'),
  (m) => m.AscDashboardView,
  {
    what: 'App Store Connect dashboard',
    loadingText: 'Loading the App Store Connect dashboard...',
  },
);

/**
 * The source choice: shown once the user has an App Store Connect app imported at least once
 * (or an imported dashboard is open, so the way back to the uploads stays).
 */
export function DashboardSourcePicker() {
  const id = useId();
  const { asc } = useDashboardState();
  const connections = useQuery(ascConnectionsQuery());
  const options = (connections.data ?? []).flatMap((c) =>
    c.apps
      .filter((a) =>
        c.imports?.some((i) => i.appId === a.appId && (i.state === 'done' || i.instances > 0)),
      )
      .map((a) => ({
        value: `${c.id}/${a.appId}`,
        connectionId: c.id,
        appId: a.appId,
        appName: a.name,
      })),
  );
  const current = asc ? `${asc.connectionId}/${asc.appId}` : 'uploads';
  // A saved dashboard of an app no longer listed (its key removed) keeps its entry.
  if (asc && !options.some((o) => o.value === current)) {
    options.push({ value: current, ...asc });
  }
  const offered = options.length > 0;
  // Someone offered an imported app is likely to open it: fetch its view's code ahead.
  useEffect(() => {
    if (offered) AscDashboard.preload();
  }, [offered]);
  // Without an imported app the dashboard is the uploads' alone, as it always was.
  if (!offered) return null;
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
      <Label htmlFor={id}>Data source</Label>
      <select
        id={id}
        className={SELECT_CLASS}
        value={current}
        data-testid="dashboard-source"
        onChange={(e) => {
          const picked = options.find((o) => o.value === e.target.value);
          if (!picked) showUploads();
          else if (picked.value !== current) openAscDashboard(picked);
        }}
      >
        <option value="uploads">Uploaded exports</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            App Store Connect: {o.appName}
          </option>
        ))}
      </select>
    </div>
  );
}
