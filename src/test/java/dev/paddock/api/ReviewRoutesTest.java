package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which requests the review routes take, and which of them go to the slow pool. */
class ReviewRoutesTest {
    @Test
    void decisionsAreSlowCommentsAndEveryOtherRouteAreNot() {
        assertThat(ReviewRoutes.isSlow("POST", "/v1/reviews/s-1/approve")).isTrue();
        assertThat(ReviewRoutes.isSlow("POST", "/v1/reviews/s-1/request-changes"))
                .isTrue();
        assertThat(ReviewRoutes.isSlow("POST", "/v1/reviews/s-1/comments")).isFalse();
        assertThat(ReviewRoutes.isSlow("GET", "/v1/reviews/s-1/comments")).isFalse();
        // Paths shorter than the prefix are asked too, for every request of the install token.
        assertThat(ReviewRoutes.isSlow("GET", "/v1/health")).isFalse();
        assertThat(ReviewRoutes.isSlow("GET", "/v1/status")).isFalse();
        assertThat(ReviewRoutes.isSlow("GET", "/")).isFalse();
        assertThat(ReviewRoutes.matches("/v1/reviews")).isFalse();
        assertThat(ReviewRoutes.matches("/v1/reviews/s-1/comments")).isTrue();
    }
}
