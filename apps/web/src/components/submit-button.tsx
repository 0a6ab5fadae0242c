import Button from '@mui/material/Button';
import type { ReactNode } from 'react';

/**
 * A form's submit button, held while its call is under way. `wide` is the sign-in pages' full-width
 * button; in-page forms use the plain one.
 */
export function SubmitButton({ pending, wide, children }: { pending: boolean; wide?: boolean; children: ReactNode }) {
  return wide ? (
    <Button type="submit" variant="contained" fullWidth size="large" disabled={pending} sx={{ mt: 2 }}>
      {children}
    </Button>
  ) : (
    <Button type="submit" variant="contained" disabled={pending}>
      {children}
    </Button>
  );
}
