import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2Icon, MessageSquareHeartIcon } from 'lucide-react';
import { useState } from 'react';
import { FEEDBACK_MAX_CHARS } from '@aso/contracts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Textarea } from '@/components/ui/textarea';
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { apiFetch } from '@/lib/api';
import { feedbackKey } from '@/lib/queries';

/** Texts of the feedback box (docs/product.md#validation-rules and #error-catalogue). */
/** Topic of the feedback box's error toasts: closed by writing, and by a sent feedback. */
const FEEDBACK_TOPIC = 'feedback';

export const FEEDBACK_TEXTS = {
  empty: 'Please enter your feedback before submitting.',
  successTitle: 'Thank you!',
  successDescription: 'Your feedback has been submitted successfully.',
  failure: 'Failed to submit feedback. Please try again.',
} as const;

/** The feedback box of a result (`POST /api/feedback`). */
export function FeedbackBox({ auditId }: { auditId: string }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const submit = useMutation({
    mutationFn: (feedback: string) =>
      apiFetch('/api/feedback', { method: 'POST', body: { auditId, feedback } }),
    onSuccess: () => {
      dismissToasts(FEEDBACK_TOPIC);
      setText('');
      toast({ title: FEEDBACK_TEXTS.successTitle, description: FEEDBACK_TEXTS.successDescription });
      void queryClient.invalidateQueries({ queryKey: feedbackKey(auditId) });
    },
    onError: () =>
      toast({
        title: 'Feedback Failed',
        description: FEEDBACK_TEXTS.failure,
        variant: 'destructive',
        topic: FEEDBACK_TOPIC,
      }),
  });

  return (
    <Card data-testid="feedback-box">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <MessageSquareHeartIcon className="size-5 text-primary" /> Was this audit useful?
        </CardTitle>
        <CardDescription>Tell us what was helpful, wrong or missing.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const feedback = text.trim();
            if (!feedback) {
              toast({
                title: 'Feedback Required',
                description: FEEDBACK_TEXTS.empty,
                variant: 'destructive',
                topic: FEEDBACK_TOPIC,
              });
              return;
            }
            submit.mutate(feedback);
          }}
        >
          <Textarea
            aria-label="Your feedback"
            rows={4}
            maxLength={FEEDBACK_MAX_CHARS}
            placeholder="Your feedback…"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              // Writing it answers 'Feedback Required'.
              dismissToasts(FEEDBACK_TOPIC);
            }}
          />
          <div className="flex justify-end">
            <Button type="submit" disabled={submit.isPending} focusableWhenDisabled>
              {submit.isPending && <Loader2Icon className="animate-spin" />}
              submit feedback
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
