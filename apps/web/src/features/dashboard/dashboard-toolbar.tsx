import type { TDashboard } from '@aso/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Check, FileDown, Loader2, Save } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { DownloadPdfButton } from '@/components/download-pdf-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { DASHBOARDS_KEY, saveDashboard, type TSaveDashboardInput } from './dashboard.api';
import { SAVE_TEXTS } from './saved-dashboard.helpers';

/**
 * The bar above a dashboard, for uploaded exports and imported App Store Connect apps alike:
 * the source's icon, the title and subtitle, the "saved" badge once the dashboard is saved,
 * and the actions (`children`), which wrap under the title on a phone.
 */
export function DashboardToolbar({
  icon,
  title,
  subtitle,
  saved,
  children,
}: {
  /** The source's icon (an uploaded file, a connection), decorative. */
  icon: ReactNode;
  /** The dashboard's heading (each source sets its own focus and wrapping). */
  title: ReactNode;
  subtitle: ReactNode;
  saved: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4 rounded-xl border bg-card p-4 shadow-sm md:flex-row md:items-center md:justify-between">
      <div className="flex min-w-0 items-center gap-3">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          {icon}
        </div>
        <div className="min-w-0">
          {title}
          <p className="text-xs break-words text-muted-foreground">{subtitle}</p>
        </div>
        {saved && (
          <Badge variant="success" className="shrink-0">
            <Check /> saved
          </Badge>
        )}
      </div>
      <div className="flex flex-wrap gap-2">{children}</div>
    </div>
  );
}

/**
 * Saving a dashboard from its toolbar: `save(input)` stores it, refreshes the saved
 * dashboards list, calls `onSaved` and says so in a toast; a refusal is a toast with
 * `failure(error)` as its text. `saving` is true meanwhile.
 */
export function useDashboardSave(
  onSaved: (saved: TDashboard) => void,
  failure: (error: unknown) => string,
): { saving: boolean; save: (input: TSaveDashboardInput) => Promise<void> } {
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const save = async (input: TSaveDashboardInput) => {
    setSaving(true);
    try {
      const saved = await saveDashboard(input);
      onSaved(saved);
      await queryClient.invalidateQueries({ queryKey: DASHBOARDS_KEY });
      toast({
        title: SAVE_TEXTS.savedTitle,
        description: `"${saved.name}" is in your saved dashboards.`,
      });
    } catch (err) {
      toast({ variant: 'destructive', title: SAVE_TEXTS.failedTitle, description: failure(err) });
    } finally {
      setSaving(false);
    }
  };
  return { saving, save };
}

/** The toolbar's "save dashboard" button (disabled while saving and once saved). */
export function SaveDashboardButton({
  saving,
  disabled,
  onSave,
  testId,
}: {
  saving: boolean;
  disabled: boolean;
  onSave: () => void;
  testId?: string;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={onSave}
      disabled={disabled || saving}
      focusableWhenDisabled
      data-testid={testId}
    >
      {saving ? <Loader2 className="animate-spin" /> : <Save />}
      save dashboard
    </Button>
  );
}

/**
 * The toolbar's PDF download: the saved dashboard's report, or a disabled button saying why
 * while the dashboard is not saved (the PDF is rendered from the saved dashboard).
 */
export function DashboardPdfButton({
  savedId,
  disabled,
}: {
  savedId: string | null;
  disabled: boolean;
}) {
  return savedId ? (
    <DownloadPdfButton
      size="sm"
      path={`/api/dashboards/${encodeURIComponent(savedId)}/report.pdf`}
      fallbackName="dashboard-report.pdf"
      disabled={disabled}
    />
  ) : (
    <span title="Save the dashboard to download it as a PDF">
      <Button variant="outline" size="sm" disabled data-testid="download-pdf">
        <FileDown /> Download PDF
      </Button>
    </span>
  );
}
