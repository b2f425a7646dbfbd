/** The notice naming the Dates Apple is still completing (nothing when there is none). */
export function ProvisionalNotice({ dates }: { dates: readonly string[] }) {
  if (dates.length === 0) return null;
  return (
    <p
      role="status"
      className="rounded-lg border border-primary/30 bg-primary/5 px-4 py-3 text-sm"
      data-testid="asc-provisional"
    >
      {dates.length === 1 ? `${dates[0]} is` : `${dates[0]} to ${dates.at(-1)} are`} still being
      completed by Apple: these figures may rise over the next days.
    </p>
  );
}
