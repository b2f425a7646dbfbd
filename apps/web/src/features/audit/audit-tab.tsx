/**
 * The audit tab (spec section 4 "Audit tab"): form -> progress -> result. On `complete` a
 * completion trigger is sent and the result view follows after 700 ms; on `error` the form
 * returns (with its values) and the 'Analysis Failed' toast shows the server's message.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { AuditResult } from '@/features/results/audit-result';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { apiFetch } from '@/lib/api';
import { auditKey } from '@/lib/queries';
import { AuditForm } from './audit-form';
import { ProgressView } from './progress-view';
import { useAuditProgress } from './use-audit-progress';

/** Delay between `complete` and the result view (ms, spec section 9). */
export const RESULT_NAVIGATION_DELAY_MS = 700;

function RunningAudit({ auditId, validLinks }: { auditId: string; validLinks: number }) {
  const { setAuditView } = useMainScreen();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const steps = useAuditProgress(auditId, {
    onComplete: (id) => {
      // Kept for spec compatibility (section 7); the gateway needs nothing from it.
      apiFetch('/api/progress/complete', { method: 'POST', body: { sessionId: id } }).catch(
        () => undefined,
      );
      void queryClient.invalidateQueries({ queryKey: auditKey(id) });
      timer.current = setTimeout(
        () => setAuditView({ kind: 'result', auditId: id }),
        RESULT_NAVIGATION_DELAY_MS,
      );
    },
    onError: (message) => {
      toast({
        title: 'Analysis Failed',
        description: message || 'Failed to analyze app. Please try again.',
        variant: 'destructive',
      });
      setAuditView({ kind: 'form' });
    },
  });
  return <ProgressView steps={steps} validLinks={validLinks} />;
}

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
      <div hidden={auditView.kind !== 'form'} ref={formArea}>
        <AuditForm
          key={formKey}
          onStarted={({ auditId, validLinks }) =>
            setAuditView({ kind: 'progress', auditId, validLinks })
          }
        />
      </div>
      {auditView.kind === 'progress' && (
        <RunningAudit
          key={auditView.auditId}
          auditId={auditView.auditId}
          validLinks={auditView.validLinks}
        />
      )}
      {auditView.kind === 'result' && (
        <AuditResult
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
