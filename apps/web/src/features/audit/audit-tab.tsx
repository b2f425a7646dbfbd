/**
 * The audit tab (docs/product.md#states-and-transitions): form -> progress -> result. On `complete`
 * a completion trigger is sent and the result view follows after 700 ms; on `error` the form
 * returns (with its values) and the 'Analysis Failed' toast shows the server's message.
 */
import { useEffect, useRef, useState } from 'react';
import { lazyScreen } from '@/components/lazy-screen';
import { LazyAuditResult } from '@/features/results';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { AuditForm } from './audit-form';

const running = lazyScreen(
  () => import('./running-audit'),
  (m) => m.RunningAudit,
  { what: 'audit progress', loadingText: 'Starting...' },
);

/**
 * The tab. The form stays mounted (hidden) so a failed run returns to the values typed; when
 * it shows again (a failed run, 'new analysis'), its heading takes the focus.
 */
export function AuditTab() {
  const { auditView, setAuditView } = useMainScreen();
  const [formKey, setFormKey] = useState(0);
  const formArea = useRef<HTMLDivElement>(null);
  const shownBefore = useRef(auditView.kind);
  useEffect(() => {
    if (auditView.kind === 'form' && shownBefore.current !== 'form')
      formArea.current?.querySelector<HTMLElement>('h1')?.focus();
    shownBefore.current = auditView.kind;
  }, [auditView.kind]);

  return (
    <>
      {/* Using the form is the intent to run an audit: its progress view loads then. */}
      <div hidden={auditView.kind !== 'form'} ref={formArea} onFocusCapture={running.preload}>
        <AuditForm
          key={formKey}
          onStarted={({ auditId, validLinks }) =>
            setAuditView({ kind: 'progress', auditId, validLinks })
          }
        />
      </div>
      {auditView.kind === 'progress' && (
        <running.Screen
          key={auditView.auditId}
          auditId={auditView.auditId}
          validLinks={auditView.validLinks}
        />
      )}
      {auditView.kind === 'result' && (
        <LazyAuditResult
          key={auditView.auditId}
          auditId={auditView.auditId}
          variant="tab"
          onNewAnalysis={() => {
            setFormKey((k) => k + 1);
            setAuditView({ kind: 'form' });
          }}
        />
      )}
    </>
  );
}
