package dev.retryafter.core.protection;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.Origin;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The learned map from route to the bucket the server named: shared by an origin's
 * partitions, and bounded.
 */
class RouteBucketsTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("https", "api.example", -1));

	@Test
	void whenABucketIsLearnedThenEveryPartitionOfTheOriginSeesItForThatRouteOnly() {
		RouteBuckets buckets = new RouteBuckets(10);
		buckets.learn(ORIGIN.withScope(CooldownScope.route("/repos")), CooldownScope.bucket("core"));

		CooldownKey partition = new CooldownKey(ORIGIN.origin(), "0123456789abcdef0123456789abcdef",
				CooldownScope.route("/repos/a/b"));
		assertThat(buckets.bucketOf(partition)).isEqualTo(CooldownScope.bucket("core"));
		assertThat(buckets.bucketOf(ORIGIN.withScope(CooldownScope.route("/search")))).isNull();
		assertThat(buckets.bucketOf(ORIGIN)).isNull();
	}

	@Test
	void whenTheServerNamesAnotherBucketThenTheLatestWins() {
		RouteBuckets buckets = new RouteBuckets(10);
		CooldownKey route = ORIGIN.withScope(CooldownScope.route("/repos"));
		buckets.learn(route, CooldownScope.bucket("core"));
		buckets.learn(route, CooldownScope.bucket("graphql"));

		assertThat(buckets.bucketOf(route)).isEqualTo(CooldownScope.bucket("graphql"));
		assertThat(buckets.size()).isOne();
	}

	@Test
	void whenManyRoutesAreLearnedThenTheMapStaysWithinItsBound() {
		RouteBuckets buckets = new RouteBuckets(8);
		for (int i = 0; i < 1000; i++) {
			buckets.learn(ORIGIN.withScope(CooldownScope.route("/r" + i)), CooldownScope.bucket("b" + i));
		}
		assertThat(buckets.size()).isEqualTo(8);
		assertThat(buckets.bucketOf(ORIGIN.withScope(CooldownScope.route("/r999"))))
			.isEqualTo(CooldownScope.bucket("b999"));
		assertThatIllegalArgumentException().isThrownBy(() -> new RouteBuckets(0));
	}

	@Test
	void whenTheKeyHasNoRouteThenNothingIsLearned() {
		RouteBuckets buckets = new RouteBuckets(8);
		buckets.learn(ORIGIN, CooldownScope.bucket("core"));
		buckets.learn(ORIGIN.withScope(CooldownScope.bucket("x")), CooldownScope.bucket("core"));
		assertThat(buckets.size()).isZero();
	}

}
