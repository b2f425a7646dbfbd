/**
 * The HTML legend drawn beside a canvas chart: readable, selectable text in the chart's own
 * colours, and, when the chart lets series be hidden, one toggle button per series.
 */
import { isPrinting } from '@/hooks/use-printing';
import { cn } from '@/lib/utils';

/** One series of a legend. */
export interface TLegendItem {
  /** The series' name, as the chart's tooltip shows it. */
  name: string;
  /** The series' colour (a CSS colour, the one the chart draws it in). */
  color: string;
}

/** Props of {@link ChartLegend}. */
export interface TChartLegendProps {
  items: readonly TLegendItem[];
  /** Accessible name of the list ('chart legend', 'Search chart legend'). */
  label: string;
  /**
   * Names of the hidden series. With `onToggle`, each item is a toggle button (pressed: the
   * series is drawn); without, the legend is a plain list.
   */
  hidden?: ReadonlySet<string>;
  /** Called with an item's name when its button is pressed. */
  onToggle?: (name: string) => void;
  className?: string;
  'data-testid'?: string;
}

const NONE: ReadonlySet<string> = new Set();

function Swatch({ color, off }: { color: string; off: boolean }) {
  return (
    <span
      aria-hidden
      className="h-2 w-3 shrink-0 rounded-sm"
      style={{
        backgroundColor: off ? 'transparent' : color,
        boxShadow: `inset 0 0 0 1px ${color}`,
      }}
    />
  );
}

/**
 * A chart's legend: its series' names with their colour. Given `onToggle`, a click (or Enter or
 * Space) on a name hides or shows its series; printed pages show the plain list (no controls on
 * paper, every series drawn).
 */
export function ChartLegend({
  items,
  label,
  hidden = NONE,
  onToggle,
  className,
  'data-testid': testId,
}: TChartLegendProps) {
  const toggles = onToggle !== undefined && !isPrinting();
  return (
    <ul
      className={cn('flex flex-wrap gap-x-4 gap-y-1.5', toggles && 'gap-x-1', className)}
      data-testid={testId}
      aria-label={label}
    >
      {items.map((item) => {
        const off = toggles && hidden.has(item.name);
        return (
          <li key={item.name} className="flex items-center gap-1.5 text-xs text-muted-foreground">
            {toggles ? (
              <button
                type="button"
                aria-pressed={!off}
                title={off ? `Show ${item.name}` : `Hide ${item.name}`}
                onClick={() => onToggle(item.name)}
                className="flex items-center gap-1.5 rounded-md px-1.5 py-0.5 outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <Swatch color={item.color} off={off} />
                <span className={off ? 'text-muted-foreground line-through' : 'text-foreground'}>
                  {item.name}
                </span>
              </button>
            ) : (
              <>
                <Swatch color={item.color} off={false} />
                <span className="text-foreground">{item.name}</span>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The state of a legend whose items hide series: the hidden names, and a toggle of one. */
export function toggled(hidden: ReadonlySet<string>, name: string): ReadonlySet<string> {
  const next = new Set(hidden);
  if (next.has(name)) next.delete(name);
  else next.add(name);
  return next;
}
