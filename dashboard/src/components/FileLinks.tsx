import { EnumText } from './EnumText';

/**
 * An object's `files` (settlements, monthly statements): a download link for each file that
 * SUCCEEDED, its status otherwise. The links are signed for 15 minutes from the page's load.
 */
export function FileLinks({ files, label }: { files: Array<{ type: string; status: string; download_url?: string }>; label: string }) {
  return (
    <ul className="files">
      {files.map((file) => (
        <li key={file.type}>
          {file.download_url ? (
            <a href={file.download_url} download aria-label={`${file.type} (CSV) of ${label}`}>
              {file.type} (CSV)
            </a>
          ) : (
            <>
              {file.type}: <EnumText code={file.status} />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
