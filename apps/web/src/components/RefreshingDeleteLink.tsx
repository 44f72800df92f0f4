import { Button, Popconfirm } from 'antd';

/**
 * A row's delete link asked in the page's own words: deletes, then reloads the list whether the
 * delete went through or was refused (the row may have changed meanwhile; the refusal is shown
 * by the API client).
 */
export function RefreshingDeleteLink({
  title,
  text,
  onDelete,
  onDone,
}: {
  /** The question, naming the row. */
  title: string;
  text: string;
  onDelete: () => Promise<unknown>;
  onDone: () => Promise<unknown>;
}) {
  return (
    <Popconfirm
      title={title}
      onConfirm={async () => {
        try {
          await onDelete();
        } finally {
          await onDone();
        }
      }}
    >
      <Button size="small" type="link" danger>
        {text}
      </Button>
    </Popconfirm>
  );
}
