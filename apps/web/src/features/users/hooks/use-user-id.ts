import { useParams } from 'react-router';

/** The numeric :id of /users/{id} routes, or null when it is not a number. */
export function useUserIdParam(): number | null {
  const { id } = useParams();
  const number = Number(id);
  return Number.isInteger(number) && number > 0 ? number : null;
}
