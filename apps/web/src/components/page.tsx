import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { usePageTitle } from '@/lib/use-page-title';

/** The frame of a screen whose content sets its own heading and title (a product page). */
export function PageFrame({ children }: { children: ReactNode }) {
  return <Box sx={{ maxWidth: 1100, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 2, sm: 3 } }}>{children}</Box>;
}

/** A screen: its heading doubles as the inner part of the document title. */
export function Page({
  title,
  actions,
  children,
  narrow,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  narrow?: boolean;
}) {
  usePageTitle(title);
  return (
    <Box sx={{ maxWidth: narrow ? 480 : 1100, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 2, sm: 3 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1, fontWeight: 600 }}>
          {title}
        </Typography>
        {actions}
      </Box>
      {children}
    </Box>
  );
}
