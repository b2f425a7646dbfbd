/** The look of the dashboard's native selects (source, territory, device). */
export const SELECT_CLASS =
  'h-9 w-full min-w-0 rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none sm:w-auto';
