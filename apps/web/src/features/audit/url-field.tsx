import { CheckCircle2Icon, CircleAlertIcon } from 'lucide-react';
import type { TParsedAppStoreUrl } from '@aso/appstore';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/** Props of {@link UrlField}. */
export interface TUrlFieldProps {
  id: string;
  label: string;
  value: string;
  /** The field state shown: idle, valid (with app id) or invalid (with error). */
  state: TParsedAppStoreUrl;
  placeholder?: string;
  optional?: boolean;
  onChange: (value: string) => void;
  onBlur: () => void;
}

/**
 * An App Store URL input with the idle / valid / invalid states of
 * docs/product.md#states-and-transitions: a green check and the app id when valid, the error under
 * the field when invalid.
 */
export function UrlField({
  id,
  label,
  value,
  state,
  placeholder,
  optional,
  onChange,
  onBlur,
}: TUrlFieldProps) {
  const invalid = state.status === 'invalid';
  const valid = state.status === 'valid';
  const messageId = `${id}-message`;
  return (
    <div className="space-y-1.5" data-testid={`${id}-field`} data-status={state.status}>
      <Label htmlFor={id}>
        {label}
        {optional && <span className="font-normal text-muted-foreground">(optional)</span>}
      </Label>
      <div className="relative">
        <Input
          id={id}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid || valid ? messageId : undefined}
          className={cn(
            'pr-9',
            valid && 'border-success/60 focus-visible:border-success focus-visible:ring-success/20',
          )}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        />
        {valid && (
          <CheckCircle2Icon className="absolute top-1/2 right-3 size-4 -translate-y-1/2 text-success" />
        )}
        {invalid && (
          <CircleAlertIcon className="absolute top-1/2 right-3 size-4 -translate-y-1/2 text-destructive" />
        )}
      </div>
      {/* The message line keeps its height in every state: a field that turns valid or invalid
          on blur must not move the button the pointer is on (the click would be lost). */}
      <p
        id={messageId}
        className={cn(
          'min-h-4 text-xs leading-4',
          invalid ? 'font-medium text-destructive' : 'text-muted-foreground',
        )}
        role={invalid ? 'alert' : undefined}
      >
        {invalid && state.error}
        {valid && (
          <>
            App ID <span className="font-mono text-foreground">{state.appId}</span> · storefront{' '}
            <span className="font-mono text-foreground uppercase">{state.storefront}</span>
          </>
        )}
      </p>
    </div>
  );
}
