import {
  BotIcon,
  CircleCheckIcon,
  CircleDashedIcon,
  CircleMinusIcon,
  CircleXIcon,
  ListChecksIcon,
  type LucideIcon,
} from 'lucide-react';
import { type TRuleOutcome, type TSectionAnalysis } from '@aso/contracts';
import { isPrinting } from '@/hooks/use-printing';
import { RULES } from '@aso/aso-rules';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/*
 * How a section of the ASO Analysis was scored: the "how this is scored" disclosure listing
 * each rule applied with its outcome and source, and the "rules only" label of a part of the
 * audit whose model text could not be used.
 */

const RULE_DEFINITIONS = new Map(RULES.map((r) => [r.id, r]));

const OUTCOME_STYLE: Record<
  TRuleOutcome['status'],
  { icon: LucideIcon; className: string; label: string }
> = {
  passed: { icon: CircleCheckIcon, className: 'text-success', label: 'passed' },
  failed: { icon: CircleXIcon, className: 'text-destructive', label: 'failed' },
  not_applicable: {
    icon: CircleMinusIcon,
    className: 'text-muted-foreground',
    label: 'does not apply',
  },
  not_judged: { icon: CircleDashedIcon, className: 'text-muted-foreground', label: 'not judged' },
};

/**
 * "How this is scored": the section's rules, each passed, failed (with the points it cost),
 * not applicable or not judged, with what was found and the rule's source.
 */
export function ScoringDisclosure({
  section,
  rulesVersion,
}: {
  section: TSectionAnalysis;
  rulesVersion: string | null | undefined;
}) {
  if (section.rules.length === 0) return null;
  return (
    <details
      className="group rounded-lg border text-sm"
      // Printed reports show every disclosure open: paper has no "show".
      open={isPrinting() || undefined}
      data-testid="scoring-disclosure"
    >
      <summary className="flex cursor-pointer list-none items-center gap-1.5 px-3 py-2 text-xs font-medium text-muted-foreground select-none hover:text-foreground">
        <ListChecksIcon className="size-3.5" /> How this is scored
        {!isPrinting() && (
          <>
            <span className="ml-auto text-[11px] font-normal group-open:hidden">show</span>
            <span className="ml-auto hidden text-[11px] font-normal group-open:inline">hide</span>
          </>
        )}
      </summary>
      <div className="space-y-2 border-t px-3 py-2.5">
        <p className="text-xs text-muted-foreground">
          {section.score === null
            ? 'Not judged: its input could not be read, so it is left out of the overall score.'
            : `The score is 100 minus the points of the failed rules: ${section.score}/100.`}
          {rulesVersion && ` Rules version ${rulesVersion}.`}
        </p>
        <ul className="space-y-2">
          {section.rules.map((o) => {
            const def = RULE_DEFINITIONS.get(o.id);
            const style = OUTCOME_STYLE[o.status];
            const Icon = style.icon;
            return (
              <li
                key={o.id}
                className="flex gap-2"
                data-testid="scoring-rule"
                data-status={o.status}
              >
                <Icon className={cn('mt-0.5 size-4 shrink-0', style.className)} aria-hidden />
                <div className="min-w-0 space-y-0.5">
                  <p className="text-xs leading-snug">
                    <span className="font-medium">{def?.title ?? o.id}</span>{' '}
                    <span className={cn('whitespace-nowrap', style.className)}>
                      {style.label}
                      {o.status === 'failed' && o.points > 0 && ` (−${o.points})`}
                    </span>
                  </p>
                  <p className="text-xs text-muted-foreground">{o.message}</p>
                  <p className="text-[11px] text-muted-foreground">
                    <code className="font-mono">
                      {o.id} v{o.version}
                    </code>
                    {' · '}
                    {o.severity} severity{' · '}
                    {def?.source.url ? (
                      <a
                        href={def.source.url}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="underline-offset-2 hover:underline"
                      >
                        {def.source.label}
                      </a>
                    ) : (
                      (def?.source.label ?? 'source not listed')
                    )}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </details>
  );
}

/** The "rules only" label: the model's text could not be used for this part of the audit. */
export function RulesOnlyBadge({ reason }: { reason?: string | undefined }) {
  return (
    <Badge
      variant="outline"
      className="gap-1 border-warning text-[10px] font-normal text-warning-foreground"
      title={
        reason
          ? `The AI analysis could not be used (${reason}); this text comes from the rules.`
          : 'This text comes from the rules.'
      }
      data-testid="rules-only"
    >
      <BotIcon className="size-3" /> rules only
    </Badge>
  );
}
