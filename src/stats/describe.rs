//! Descriptive statistics of samples (game lengths, scores).
//!
//! Each returns `None` for an empty sample rather than a NaN that would leak
//! into reports.

/// Arithmetic mean.
pub fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    Some(values.iter().sum::<f64>() / values.len() as f64)
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Median: the middle value, or the mean of the two middle values when the
/// sample has an even size.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let v = sorted(values);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The `q`-quantile (0 < q <= 1) by the nearest-rank method: the smallest
/// sample value such that at least a fraction `q` of the sample is at or
/// below it, i.e. the value of rank `ceil(q * n)` (1-based) in sorted order.
/// It is always an observed value, so a p90 of game lengths is a real length.
pub fn percentile_nearest_rank(values: &[f64], q: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let v = sorted(values);
    let rank = (q.clamp(0.0, 1.0) * v.len() as f64).ceil() as usize;
    Some(v[rank.clamp(1, v.len()) - 1])
}

/// The 90th percentile by the nearest-rank method
/// (see [`percentile_nearest_rank`]).
pub fn p90(values: &[f64]) -> Option<f64> {
    percentile_nearest_rank(values, 0.9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_samples_have_no_statistics() {
        assert_eq!(mean(&[]), None);
        assert_eq!(median(&[]), None);
        assert_eq!(p90(&[]), None);
    }

    #[test]
    fn mean_and_median_of_small_samples() {
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn nearest_rank_percentiles() {
        // Textbook example: 15, 20, 35, 40, 50.
        let v = [50.0, 15.0, 40.0, 20.0, 35.0];
        assert_eq!(percentile_nearest_rank(&v, 0.05), Some(15.0));
        assert_eq!(percentile_nearest_rank(&v, 0.30), Some(20.0));
        assert_eq!(percentile_nearest_rank(&v, 0.40), Some(20.0));
        assert_eq!(percentile_nearest_rank(&v, 0.50), Some(35.0));
        assert_eq!(percentile_nearest_rank(&v, 1.0), Some(50.0));
        // 1..=10: rank ceil(9) = 9; 1..=11: rank ceil(9.9) = 10.
        let ten: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(p90(&ten), Some(9.0));
        let eleven: Vec<f64> = (1..=11).map(f64::from).collect();
        assert_eq!(p90(&eleven), Some(10.0));
        assert_eq!(p90(&[7.0]), Some(7.0));
    }
}
