import Alert from '@mui/material/Alert';
import Box, { type BoxProps } from '@mui/material/Box';
import type { FormEventHandler, ReactNode } from 'react';
import { useErrorMessage } from './states';

interface FormFrameProps {
  /** The form's name for screen readers. */
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** An error that belongs to no single field; shown above the fields, translated. */
  error?: unknown;
  /** A note of success, announced politely. */
  success?: ReactNode;
  /** Shown first, before any success or error. */
  intro?: ReactNode;
  sx?: BoxProps['sx'];
  children: ReactNode;
}

/**
 * The frame every form shares: a labelled form that validates itself (`noValidate` keeps the
 * browser's own bubbles out, so each field shows the protocol's message), then its success note and
 * its general error in one place, so that screen readers hear them the same way on every form.
 */
export function FormFrame({ label, onSubmit, error, success, intro, sx, children }: FormFrameProps) {
  const errorMessage = useErrorMessage();
  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={label} sx={sx}>
      {intro}
      {success ? (
        <Alert severity="success" role="status" sx={{ mb: 1 }}>
          {success}
        </Alert>
      ) : null}
      {error ? (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {errorMessage(error)}
        </Alert>
      ) : null}
      {children}
    </Box>
  );
}
