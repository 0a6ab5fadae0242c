import { styled, type Theme } from '@mui/material/styles';
import type { ComponentProps } from 'react';
import { Link as RouterLink } from 'react-router-dom';

type Look = {
  variant?: 'text' | 'outlined' | 'contained';
  color?: 'primary' | 'inherit';
  size?: 'small' | 'medium';
  /** An icon alone, round, as MUI's IconButton; `start` pulls it to the bar's edge. */
  icon?: boolean | 'start';
};

// MUI's Button and IconButton, as they look in this theme, without ButtonBase: its ripple
// (react-transition-group) and Button's loading spinner would be on the first screen only for the
// frame's and the catalog's buttons. Focus shows as an outline instead of the ripple's pulse.
function look(theme: Theme, { variant = 'text', color = 'primary', size = 'medium', icon = false }: Look) {
  const main = color === 'inherit' ? 'inherit' : theme.palette[color].main;
  const hover = theme.alpha(
    color === 'inherit' ? theme.palette.text.primary : theme.palette[color].main,
    theme.palette.action.hoverOpacity,
  );
  const small = size === 'small';
  const base = {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    position: 'relative' as const,
    boxSizing: 'border-box' as const,
    WebkitTapHighlightColor: 'transparent',
    backgroundColor: 'transparent',
    outline: 0,
    border: 0,
    margin: 0,
    cursor: 'pointer',
    userSelect: 'none' as const,
    verticalAlign: 'middle',
    textDecoration: 'none',
    color: main,
    '&:focus-visible': { outline: '2px solid currentColor', outlineOffset: 2 },
    '&:disabled': { pointerEvents: 'none' as const, cursor: 'default', color: theme.palette.action.disabled },
  };
  if (icon) {
    return {
      ...base,
      flex: '0 0 auto',
      textAlign: 'center' as const,
      fontSize: theme.typography.pxToRem(24),
      padding: 8,
      borderRadius: '50%',
      minWidth: 44,
      minHeight: 44,
      marginLeft: icon === 'start' ? -12 : 0,
      transition: theme.transitions.create('background-color', { duration: theme.transitions.duration.shortest }),
      '@media (hover: hover)': {
        '&:hover': { backgroundColor: theme.alpha(theme.palette.action.active, theme.palette.action.hoverOpacity) },
      },
    };
  }
  const padding = {
    text: small ? '4px 5px' : '6px 8px',
    outlined: small ? '3px 9px' : '5px 15px',
    contained: small ? '4px 10px' : '6px 16px',
  }[variant];
  return {
    ...base,
    ...theme.typography.button,
    ...(small ? { fontSize: theme.typography.pxToRem(13) } : {}),
    textTransform: 'none' as const,
    minWidth: 64,
    minHeight: 44,
    padding,
    borderRadius: theme.shape.borderRadius,
    transition: theme.transitions.create(['background-color', 'box-shadow', 'border-color', 'color'], {
      duration: theme.transitions.duration.short,
    }),
    ...(variant === 'outlined'
      ? {
          border: '1px solid currentColor',
          borderColor: color === 'inherit' ? 'currentColor' : theme.alpha(theme.palette[color].main, 0.5),
        }
      : {}),
    ...(variant === 'contained' && color !== 'inherit'
      ? {
          color: theme.palette[color].contrastText,
          backgroundColor: theme.palette[color].main,
          boxShadow: theme.shadows[2],
          '&:active': { boxShadow: theme.shadows[8] },
          '&:focus-visible': {
            outline: `2px solid ${theme.palette[color].main}`,
            outlineOffset: 2,
            boxShadow: theme.shadows[6],
          },
        }
      : {}),
    '@media (hover: hover)': {
      '&:hover':
        variant === 'contained' && color !== 'inherit'
          ? { backgroundColor: theme.palette[color].dark, boxShadow: theme.shadows[4] }
          : {
              backgroundColor: hover,
              ...(variant === 'outlined' && color !== 'inherit' ? { borderColor: theme.palette[color].main } : {}),
            },
    },
  };
}

const notLook = (prop: string) => !['variant', 'color', 'size', 'icon', 'ownerState', 'sx', 'as'].includes(prop);

const ButtonRoot = styled('button', { shouldForwardProp: notLook })<{ ownerState: Look }>(({ theme, ownerState }) =>
  look(theme, ownerState),
);
const LinkRoot = styled(RouterLink, { shouldForwardProp: notLook })<{ ownerState: Look }>(({ theme, ownerState }) =>
  look(theme, ownerState),
);

type Common = Look & { sx?: ComponentProps<typeof ButtonRoot>['sx'] };

/**
 * A button of the first screen (the frame and the catalog), drawn like MUI's Button or, with
 * `icon`, its IconButton; with `to` it is a link to that page. Other screens use MUI's own.
 */
export function FrameButton(
  props:
    | (Common & { to: string } & Omit<ComponentProps<typeof RouterLink>, 'color' | 'to'>)
    | (Common & { to?: undefined } & Omit<ComponentProps<'button'>, 'color'>),
) {
  const { variant, color, size, icon, ...rest } = props;
  const ownerState = { variant, color, size, icon };
  if (rest.to !== undefined) return <LinkRoot ownerState={ownerState} {...rest} />;
  const { to: _to, ...button } = rest;
  return <ButtonRoot type="button" ownerState={ownerState} {...button} />;
}
