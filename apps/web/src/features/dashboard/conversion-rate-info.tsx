import { CONVERSION_RATES, conversionRateLabel } from '@aso/analytics';
import { InfoIcon } from 'lucide-react';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '@/components/ui/tooltip';
import { isPrinting } from '@/hooks/use-printing';

/**
 * An info button whose tooltip names a conversion rate and its formula ('First-time conversion
 * rate (first-time downloads / impressions)') and says whose definition it is; focusable, so
 * keyboard users reach it too. Not printed: a button means nothing on paper, where the formula
 * stands under the figure.
 */
export function ConversionRateInfo({ rate }: { rate: keyof typeof CONVERSION_RATES }) {
  const label = conversionRateLabel(rate);
  if (isPrinting()) return null;
  return (
    <TooltipProvider>
      <Tooltip>
        <TooltipTrigger
          type="button"
          aria-label={`About the ${label}`}
          className="inline-flex size-5 items-center justify-center rounded-full text-muted-foreground hover:text-foreground"
          data-testid={`rate-info-${rate}`}
        >
          <InfoIcon className="size-3.5" aria-hidden />
        </TooltipTrigger>
        <TooltipContent className="max-w-72" data-testid={`rate-tooltip-${rate}`}>
          <span className="font-semibold">{label}.</span> {CONVERSION_RATES[rate].description}
        </TooltipContent>
      </Tooltip>
    </TooltipProvider>
  );
}
