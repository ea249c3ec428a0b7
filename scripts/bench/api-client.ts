/** `POST /v2/<path>` with the key `secret`, as a merchant calls the API: the JSON answer of a 200, anything else thrown. */
export function apiClient(baseUrl: string, secret: string) {
  return async (path: string, body: unknown): Promise<any> => {
    const response = await fetch(`${baseUrl}/v2/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
}
