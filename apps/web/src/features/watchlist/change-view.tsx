/**
 * One change of a watched listing on its timeline: the field's name and its value before and
 * after, side by side (stacked on a phone). Texts have their differing words marked, screenshots
 * are two strips with added and removed ones outlined, lists say what was added and removed.
 * Store text is rendered as React text nodes only, never as HTML.
 */
import {
  changeBaseField,
  changeFieldLabel,
  ZChangeEvent,
  ZChangePreview,
  ZChangePrice,
  type TListingChange,
} from '@aso/contracts';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { Badge } from '@/components/ui/badge';
import { aspectFromUrl } from '@/features/results/screenshot-strip';
import { StoreImage } from '@/features/results/store-image';
import { cn } from '@/lib/utils';
import { diffTexts, type TDiffSegment } from './text-diff.helpers';

const ZStrings = z.array(z.string());

function parsed<T>(schema: z.ZodType<T>, value: unknown): T | null {
  const result = schema.safeParse(value);
  return result.success ? result.data : null;
}

/** A field's value in one column, with its heading ('Before' / 'After'). */
function Column({ side, children }: { side: 'before' | 'after'; children: ReactNode }) {
  return (
    <div className="min-w-0 flex-1" data-side={side}>
      <p className="mb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">
        {side === 'before' ? 'Before' : 'After'}
      </p>
      {children}
    </div>
  );
}

function Sides({ before, after }: { before: ReactNode; after: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 md:flex-row md:gap-6">
      <Column side="before">{before}</Column>
      <Column side="after">{after}</Column>
    </div>
  );
}

const NONE = <span className="text-sm text-muted-foreground italic">none</span>;

function Segments({ segments, side }: { segments: TDiffSegment[]; side: 'before' | 'after' }) {
  if (segments.length === 0) return NONE;
  return (
    <p className="text-sm break-words whitespace-pre-wrap" data-testid="diff-text">
      {segments.map((s, i) =>
        !s.changed ? (
          <span key={i}>{s.text}</span>
        ) : side === 'before' ? (
          <del
            key={i}
            className="rounded-sm bg-destructive/15 text-foreground decoration-destructive/70"
          >
            {s.text}
          </del>
        ) : (
          <ins key={i} className="rounded-sm bg-success/20 text-foreground no-underline">
            {s.text}
          </ins>
        ),
      )}
    </p>
  );
}

function TextChange({ change, language }: { change: TListingChange; language: string }) {
  const text = (v: unknown) =>
    typeof v === 'string'
      ? v
      : typeof v === 'number'
        ? String(v)
        : v == null
          ? null
          : JSON.stringify(v);
  const d = diffTexts(text(change.before), text(change.after), language);
  return (
    <Sides
      before={<Segments segments={d.before} side="before" />}
      after={<Segments segments={d.after} side="after" />}
    />
  );
}

/** A strip of screenshots where those only on this side are outlined and badged. */
function Shots({
  urls,
  marked,
  side,
  label,
}: {
  urls: string[];
  marked: ReadonlySet<string>;
  side: 'before' | 'after';
  label: string;
}) {
  if (urls.length === 0) return NONE;
  return (
    <div
      role="group"
      aria-label={`${label} ${side}`}
      tabIndex={0}
      className="scrollbar-thin flex gap-2 overflow-x-auto rounded-md pb-2 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      {urls.map((url, i) => {
        const only = marked.has(url);
        return (
          <figure key={`${url}-${i}`} className="flex shrink-0 flex-col items-center gap-1">
            <StoreImage
              src={url}
              alt={`${label} ${side}, screenshot ${i + 1}${only ? (side === 'before' ? ' (removed)' : ' (added)') : ''}`}
              label={`${i + 1}`}
              aspectRatio={aspectFromUrl(url)}
              className={cn(
                'h-40 w-auto rounded-lg',
                only && (side === 'before' ? 'ring-3 ring-destructive' : 'ring-3 ring-success'),
              )}
              placeholderClassName={cn(
                'h-28 w-auto rounded-lg',
                only && (side === 'before' ? 'ring-3 ring-destructive' : 'ring-3 ring-success'),
              )}
            />
            {only && (
              <figcaption>
                <Badge variant={side === 'before' ? 'destructive' : 'success'}>
                  {side === 'before' ? 'removed' : 'added'}
                </Badge>
              </figcaption>
            )}
          </figure>
        );
      })}
    </div>
  );
}

function ScreenshotChange({ change }: { change: TListingChange }) {
  const before = parsed(ZStrings, change.before) ?? [];
  const after = parsed(ZStrings, change.after) ?? [];
  const removed = new Set(change.detail?.removed ?? before.filter((u) => !after.includes(u)));
  const added = new Set(change.detail?.added ?? after.filter((u) => !before.includes(u)));
  const label = changeFieldLabel(change.field);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-muted-foreground">
        {[
          added.size > 0 && `${added.size} added`,
          removed.size > 0 && `${removed.size} removed`,
          change.detail?.reordered && 'order changed',
          `${before.length} → ${after.length} screenshots`,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      <Sides
        before={<Shots urls={before} marked={removed} side="before" label={label} />}
        after={<Shots urls={after} marked={added} side="after" label={label} />}
      />
    </div>
  );
}

function IconChange({ change }: { change: TListingChange }) {
  const icon = (v: unknown, side: 'before' | 'after') =>
    typeof v === 'string' ? (
      <StoreImage
        src={v}
        alt={`Icon ${side}`}
        label="Icon"
        aspectRatio="1 / 1"
        className="size-20 rounded-[22%]"
      />
    ) : (
      NONE
    );
  return <Sides before={icon(change.before, 'before')} after={icon(change.after, 'after')} />;
}

/** A list whose items only on this side are marked. */
function Items({
  items,
  marked,
  side,
}: {
  items: string[];
  marked: ReadonlySet<string>;
  side: 'before' | 'after';
}) {
  if (items.length === 0) return NONE;
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {items.map((item, i) => {
        const only = marked.has(item);
        return (
          <li key={`${item}-${i}`} className="break-words">
            {only ? (
              side === 'before' ? (
                <del className="rounded-sm bg-destructive/15 text-foreground">{item}</del>
              ) : (
                <ins className="rounded-sm bg-success/20 text-foreground no-underline">{item}</ins>
              )
            ) : (
              item
            )}
          </li>
        );
      })}
    </ul>
  );
}

function ListChange({
  before,
  after,
}: {
  before: { key: string; text: string }[];
  after: { key: string; text: string }[];
}) {
  const beforeKeys = new Set(before.map((b) => b.key));
  const afterKeys = new Set(after.map((a) => a.key));
  const removed = new Set(before.filter((b) => !afterKeys.has(b.key)).map((b) => b.text));
  const added = new Set(after.filter((a) => !beforeKeys.has(a.key)).map((a) => a.text));
  return (
    <Sides
      before={<Items items={before.map((b) => b.text)} marked={removed} side="before" />}
      after={<Items items={after.map((a) => a.text)} marked={added} side="after" />}
    />
  );
}

function numberText(v: unknown, digits: number): string | null {
  return typeof v === 'number' && Number.isFinite(v)
    ? v.toLocaleString('en-US', { maximumFractionDigits: digits })
    : null;
}

/** The before / after of one change. */
export function ChangeValues({ change, language }: { change: TListingChange; language: string }) {
  const base = changeBaseField(change.field);
  switch (base) {
    case 'title':
    case 'subtitle':
    case 'description':
    case 'promotionalText':
    case 'releaseNotes':
    case 'version':
    case 'categoryRank':
      return <TextChange change={change} language={language} />;
    case 'icon':
      return <IconChange change={change} />;
    case 'screenshots':
      return <ScreenshotChange change={change} />;
    case 'previews': {
      const list = (v: unknown) =>
        (parsed(z.array(ZChangePreview), v) ?? []).map((p) => ({
          key: p.videoUrl,
          text: `${p.device} preview video (${p.videoUrl.split('/').pop() ?? p.videoUrl})`,
        }));
      return <ListChange before={list(change.before)} after={list(change.after)} />;
    }
    case 'inAppEvents': {
      const list = (v: unknown) =>
        (parsed(z.array(ZChangeEvent), v) ?? []).map((e) => ({
          key: e.id,
          text: [e.name, e.badge, e.timeIndicator].filter(Boolean).join(' · '),
        }));
      return <ListChange before={list(change.before)} after={list(change.after)} />;
    }
    case 'languages': {
      const list = (v: unknown) => (parsed(ZStrings, v) ?? []).map((l) => ({ key: l, text: l }));
      return <ListChange before={list(change.before)} after={list(change.after)} />;
    }
    case 'price': {
      const price = (v: unknown) => {
        const p = parsed(ZChangePrice, v);
        if (!p) return NONE;
        return <p className="text-sm">{p.formatted ?? `${p.amount} ${p.currency ?? ''}`.trim()}</p>;
      };
      return <Sides before={price(change.before)} after={price(change.after)} />;
    }
    case 'rating':
    case 'ratingCount': {
      const digits = base === 'rating' ? 2 : 0;
      const show = (v: unknown) => {
        const t = numberText(v, digits);
        return t === null ? NONE : <p className="text-sm tabular-nums">{t}</p>;
      };
      return <Sides before={show(change.before)} after={show(change.after)} />;
    }
  }
}

/** One change: its field's label and its values. */
export function ChangeView({ change, language }: { change: TListingChange; language: string }) {
  return (
    <section className="flex flex-col gap-2" data-testid="change" data-field={change.field}>
      <h4 className="text-sm font-semibold">{changeFieldLabel(change.field)}</h4>
      <ChangeValues change={change} language={language} />
    </section>
  );
}
