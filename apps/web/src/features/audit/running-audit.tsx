/**
 * A running audit in the audit tab: its live progress (SSE), then the result view. Loaded when
 * the form is first used, so the first load does not carry the progress stream's code.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from '@/components/ui/use-toast';
import { preloadAuditResult } from '@/features/results';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { apiFetch } from '@/lib/api';
import { auditKey } from '@/lib/queries';
import { ProgressView } from './progress-view';
import { useAuditProgress } from './use-audit-progress';

/** Delay between `complete` and the result view (ms, docs/product.md#limits-and-constants). */
export const RESULT_NAVIGATION_DELAY_MS = 700;

/** The progress of audit `auditId`; the result view follows on `complete`. */
export function RunningAudit({ auditId, validLinks }: { auditId: string; validLinks: number }) {
  const { setAuditView } = useMainScreen();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The result view follows the run: its code loads while the audit runs.
  useEffect(preloadAuditResult, []);

  const steps = useAuditProgress(auditId, {
    onComplete: (id) => {
      // Kept for older clients (docs/product.md#api-calls); the gateway needs nothing from it.
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
        // Closed by the form once another audit starts.
        topic: 'analysis',
      });
      setAuditView({ kind: 'form' });
    },
  });
  return <ProgressView steps={steps} validLinks={validLinks} />;
}
