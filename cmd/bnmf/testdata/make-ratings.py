# Writes ratings.csv: made-up ratings in the layout of MovieLens's
# ratings.csv (header userId,movieId,rating,timestamp; half stars from 0.5
# to 5), for the tests and the README's examples. 150 users rate 300
# movies drawn with Zipf-like popularity, so that many movies have one or
# two ratings, as in MovieLens latest-small; the ratings come from a rank-3
# nonnegative matrix plus noise, rounded to half stars.
# Run: python3 make-ratings.py > ratings.csv
import random

rng = random.Random(20261124)
users, movies, k = 150, 300, 3
w = [[rng.gammavariate(2, 0.5) for _ in range(k)] for _ in range(users)]
z = [[rng.gammavariate(2, 0.5) for _ in range(movies)] for _ in range(k)]
pop = [1 / (j + 1) ** 0.9 for j in range(movies)]
print("userId,movieId,rating,timestamp")
t = 964982703
for u in range(users):
    n = rng.randint(8, 40)
    seen = set()
    for _ in range(n):
        j = rng.choices(range(movies), weights=pop)[0]
        if j in seen:
            continue
        seen.add(j)
        v = sum(w[u][f] * z[f][j] for f in range(k)) + rng.gauss(0, 0.6)
        v = min(5.0, max(0.5, round(v * 2) / 2))
        t += rng.randint(1, 5000)
        print(f"{u + 1},{10 * j + 1},{v},{t}")
