/** A model returned by `GET /v1/models`. Unknown fields are kept. */
export interface Model {
  id: string;
  object?: string;
  created?: number;
  owned_by?: string;
  [key: string]: unknown;
}
