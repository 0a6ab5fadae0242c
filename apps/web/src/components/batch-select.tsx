import Autocomplete from '@mui/material/Autocomplete';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type UIEvent } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { useDebounced } from '@/lib/use-debounced';
import { SELECT_BATCH_SIZE } from '@/lib/ui-constants';

export interface BatchPage<T> {
  items: T[];
  total: number;
}

/**
 * A select over a long list that loads its options 20 at a time: the next batch is fetched when the
 * list is scrolled near its end, and typing filters on the server.
 */
export function BatchSelect<T>({
  label,
  queryKey,
  loadBatch,
  optionLabel,
  optionKey,
  value,
  onChange,
}: {
  label: string;
  queryKey: readonly unknown[];
  loadBatch: (offset: number, limit: number, search: string) => Promise<BatchPage<T>>;
  optionLabel: (item: T) => string;
  optionKey: (item: T) => string;
  value: T | null;
  onChange: (item: T | null) => void;
}) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const search = useDebounced(input, 300);
  const query = useInfiniteQuery({
    queryKey: [...queryKey, search],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => loadBatch(pageParam, SELECT_BATCH_SIZE, search),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
  });
  const options = query.data?.pages.flatMap((p) => p.items) ?? [];
  const onScroll = (event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 40 && query.hasNextPage && !query.isFetchingNextPage) {
      void query.fetchNextPage();
    }
  };
  return (
    <Autocomplete
      options={options}
      value={value}
      onChange={(_e, v) => onChange(v)}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      getOptionLabel={optionLabel}
      isOptionEqualToValue={(a, b) => optionKey(a) === optionKey(b)}
      filterOptions={(x) => x}
      loading={query.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={t('common.noOptions')}
      slotProps={{ listbox: { onScroll } }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          slotProps={{
            ...params.slotProps,
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {query.isFetching ? <CircularProgress size={18} /> : null}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
