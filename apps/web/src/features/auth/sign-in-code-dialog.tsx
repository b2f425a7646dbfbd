/**
 * The dialog that shows a personal sign-in code once: after sign-up (the code the user signs
 * in with from then on) and when an admin issues a new one. The server keeps only its hash,
 * so it cannot be shown again; a copy button puts it on the clipboard.
 */
import { CheckIcon, CopyIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

/** Props of {@link SignInCodeDialog}. */
export interface TSignInCodeDialogProps {
  /** The code to show; the dialog is open while it is not null. */
  code: string | null;
  /** Whose code it is (the email), for the text. */
  email: string;
  /** 'self': the user's own code after sign-up; 'admin': a code an admin hands over. */
  audience: 'self' | 'admin';
  onClose: () => void;
}

/** Shows a personal sign-in code with a copy button until the user closes it. */
export function SignInCodeDialog({ code, email, audience, onClose }: TSignInCodeDialogProps) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Dialog
      open={code !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
    >
      <DialogContent data-testid="sign-in-code-dialog">
        <DialogHeader>
          <DialogTitle>
            {audience === 'self' ? 'Your personal sign-in code' : `New sign-in code for ${email}`}
          </DialogTitle>
          <DialogDescription>
            {audience === 'self'
              ? `From now on you sign in with ${email} and this code, not with the access code you signed up with. It is shown only this once: copy it and keep it somewhere safe.`
              : 'Give it to this user: they sign in with their email and this code. Their previous code no longer works. It is shown only this once.'}
          </DialogDescription>
        </DialogHeader>
        <div className="flex items-center gap-2 rounded-md border bg-muted/40 p-3">
          <code
            className="flex-1 font-mono text-lg font-semibold tracking-wider break-all"
            data-testid="sign-in-code-value"
          >
            {code}
          </code>
          <Button variant="outline" size="sm" onClick={() => void copy()} aria-label="copy code">
            {copied ? <CheckIcon /> : <CopyIcon />}
            {copied ? 'copied' : 'copy'}
          </Button>
        </div>
        <DialogFooter>
          <Button
            onClick={() => {
              setCopied(false);
              onClose();
            }}
          >
            I have saved it
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
